import json,re,os,sys,datetime,collections
OUT="/work/train-new/urgency-b"
path=sys.argv[1]
rx=re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$")
addr=re.compile(r"^(.+ )?<?[^@\s<>]+@[^@\s<>]+\.example>?$")
err=[];ids=set();rows=[]
for n,l in enumerate(open(path,encoding="utf-8"),1):
    try: m=json.loads(l)
    except Exception as e: err.append(f"line {n}: bad json {e}"); continue
    rows.append(m)
    keys={"id","persona","date","from","to","cc","headers","subject","body","thread","urgency"}
    if set(m)!=keys: err.append(f"{n}: keys {set(m)^keys}")
    if m["id"] in ids: err.append(f"dup id {m['id']}")
    ids.add(m["id"])
    if not m["id"].startswith(m["persona"]+"-"): err.append(f"{m['id']} persona mismatch")
    if not os.path.isfile(f"{OUT}/personas/{m['persona']}.yaml"): err.append(f"missing persona file {m['persona']}")
    if m["urgency"] not in ("high","medium","low"): err.append(f"{m['id']} bad label")
    if not rx.match(m["date"]): err.append(f"{m['id']} date {m['date']}")
    if not isinstance(m["to"],list) or not m["to"] or not isinstance(m["cc"],list): err.append(f"{m['id']} to/cc")
    for a in [m["from"]]+m["to"]+m["cc"]:
        if not addr.match(a): err.append(f"{m['id']} address {a}")
    if not isinstance(m["headers"],dict): err.append(f"{m['id']} headers")
    if not m["body"].strip(): err.append(f"{m['id']} empty body")
    if not isinstance(m["thread"],list) or len(m["thread"])>4: err.append(f"{m['id']} thread len")
    md=datetime.datetime.fromisoformat(m["date"]); prev=None
    for t in m["thread"]:
        if set(t)!={"from","date","body"}: err.append(f"{m['id']} thread keys")
        if not rx.match(t["date"]): err.append(f"{m['id']} thread date {t['date']}")
        td=datetime.datetime.fromisoformat(t["date"])
        if td>=md: err.append(f"{m['id']} thread msg not earlier")
        if prev and td<prev: err.append(f"{m['id']} thread not oldest-first")
        prev=td
# persona yaml check
import subprocess
for f in os.listdir(f"{OUT}/personas"):
    s=open(f"{OUT}/personas/{f}").read()
    for k in ("urgency:","high:","medium:","low:"):
        if k not in s: err.append(f"{f} missing {k}")
c=collections.Counter(m["persona"] for m in rows)
cl=collections.Counter((m["persona"],m["urgency"]) for m in rows)
print("total",len(rows))
for p in c:
    hi=cl[(p,'high')]; print(f"{p:9s} {c[p]:3d}  high {hi:2d} ({100*hi/c[p]:.0f}%) medium {cl[(p,'medium')]:2d} low {cl[(p,'low')]:2d}")
    if not 55<=c[p]<=70: err.append(f"{p} count {c[p]}")
lab=collections.Counter(m["urgency"] for m in rows); print("labels",dict(lab))
th=sum(1 for m in rows if m["thread"]); lg=sum(1 for m in rows if len(m["body"])>600)
print(f"with thread {th} ({100*th/len(rows):.1f}%), body>600 chars {lg} ({100*lg/len(rows):.1f}%)")
auto=sum(1 for m in rows if m["headers"]); print("with headers",auto, "auto-submitted",sum(1 for m in rows if "Auto-Submitted" in m["headers"]))
print("cc-only style (persona in cc)", sum(1 for m in rows if m["cc"]))
print("ERRORS:",len(err)); print("\n".join(err[:40]))
