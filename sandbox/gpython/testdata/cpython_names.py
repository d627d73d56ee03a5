# Prints the tables of ../cpython_names.go (run with CPython 3.10 or newer,
# then turn the lines into the Go tables: BUILTINS, TYPE name, MOD name and
# STDLIB lines hold space-separated names).
import builtins, sys, math, os, time, string

print("BUILTINS", " ".join(sorted(n for n in dir(builtins) if not n.startswith("_"))))
types = {"str": str, "list": list, "dict": dict, "int": int, "float": float, "tuple": tuple,
         "set": set, "frozenset": frozenset, "bytes": bytes, "bool": bool, "complex": complex,
         "range": range, "slice": slice, "object": object, "type": type}
for k, t in types.items():
    print("TYPE", k, " ".join(sorted(dir(t))))
for m in (math, os, sys, time, string):
    print("MOD", m.__name__, " ".join(sorted(n for n in dir(m) if not n.startswith("__"))))
print("STDLIB", " ".join(sorted(n for n in sys.stdlib_module_names if not n.startswith("_"))))
