"""Reading xsc's --json output, shared by the Python parts of the tests.

A --json run prints one JSON document per command, one after the other (not one array):
docs() splits such a text into its documents, calls() keeps the answers of 'call'.
    sys.path.insert(0, os.path.join(os.environ["top"], "tests")); import jsondocs
"""
import json


def docs(text):
    """Every JSON document of TEXT, in order."""
    dec, i, res = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return res
        doc, i = dec.raw_decode(text, i)
        res.append(doc)


def calls(path):
    """The answers of the calls in the --json output in file PATH."""
    with open(path) as f:
        return [d for d in docs(f.read()) if isinstance(d, dict) and "syscall" in d and "target" in d]
