#!/usr/bin/env python3
"""Adds to agents/package-lock.json the platform packages a registry mirror does not serve.

`npm install --package-lock-only` leaves out an optional dependency whose metadata the registry
answers with 404 (opencode's and @teddyzhu/clipboard's packages for other platforms on some
mirrors), and `npm ci` then refuses the lock as out of sync. This lists each missing one as an
optional entry with its os, cpu and libc read from its name, so npm ci skips it on other
platforms. Run it after updating the lock:

    cd agents && npm install --package-lock-only && python3 ../scripts/lock-missing-optionals.py package-lock.json
"""
import json,sys,re
p=sys.argv[1]
lock=json.load(open(p))
pk=lock["packages"]
added=[]
for path,meta in list(pk.items()):
    for name,ver in (meta.get("optionalDependencies") or {}).items():
        base = path + "/node_modules/" + name if path else "node_modules/" + name
        top = "node_modules/" + name
        if base in pk or top in pk:
            continue
        e={"version": ver, "optional": True}
        os_=[];cpu=[]
        for o in ["darwin","linux","win32","freebsd","android"]:
            if re.search(r'(^|[-/])'+o+r'($|-)', name): os_.append(o)
        for c in ["arm64","x64","arm","ia32"]:
            if re.search(r'(^|-)'+c+r'($|-)', name): cpu.append(c)
        if "windows" in name: os_.append("win32")
        if "musl" in name: e["libc"]=["musl"]
        if os_: e["os"]=os_
        if cpu: e["cpu"]=cpu
        pk[top]=e
        added.append(top)
lock["packages"]=dict(sorted(pk.items(), key=lambda kv: (kv[0]!="", kv[0])))
json.dump(lock, open(p,"w"), indent=2, ensure_ascii=False)
open(p,"a").write("\n")
print("added", len(added)); print("\n".join(added))
