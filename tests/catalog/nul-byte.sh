# a raw NUL byte inside a string
printf '{\n  "flagsets": [\n    {\n      "name": "demo\000flags",\n      "kind": "bits",\n      "header": "linux/demo.h",\n      "doc": "demo flags",\n      "flags": []\n    }\n  ]\n}\n'
