# a string holding a lone Latin-1 byte (0xe9), which is not UTF-8
printf '{\n  "flagsets": [\n    {\n      "name": "demo_flags",\n      "kind": "bits",\n      "header": "linux/demo.h",\n      "doc": "d\351mo flags",\n      "flags": []\n    }\n  ]\n}\n'
