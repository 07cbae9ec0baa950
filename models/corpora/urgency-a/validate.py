import json, re, os, sys, datetime
from collections import Counter, defaultdict
OUT=sys.argv[1]; src=sys.argv[2] if len(sys.argv)>2 else OUT+'/messages.jsonl'
rows=[json.loads(l) for l in open(src)] if src.endswith('.jsonl') else json.load(open(src))
errs=[]; ids=set(); per=defaultdict(Counter)
OFF=re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$')
ADDR=re.compile(r'[\w.+-]+@([\w-]+\.)*example\b')
KEYS={"id","persona","date","from","to","cc","headers","subject","body","thread","urgency"}
for r in rows:
    if set(r)!=KEYS: errs.append((r.get('id'),'keys',set(r)^KEYS))
    if r['id'] in ids: errs.append((r['id'],'dup'))
    ids.add(r['id'])
    if not r['id'].startswith(r['persona']+'-'): errs.append((r['id'],'id/persona'))
    if not os.path.exists(f"{OUT}/personas/{r['persona']}.yaml"): errs.append((r['id'],'no persona file'))
    if r['urgency'] not in ('high','medium','low'): errs.append((r['id'],'label'))
    if not OFF.match(r['date']): errs.append((r['id'],'date',r['date']))
    d=datetime.datetime.fromisoformat(r['date'])
    for a in [r['from']]+r['to']+r['cc']:
        if not ADDR.search(a): errs.append((r['id'],'addr',a))
    if not isinstance(r['headers'],dict): errs.append((r['id'],'headers'))
    if not r['body'].strip(): errs.append((r['id'],'empty body'))
    if len(r['thread'])>4: errs.append((r['id'],'thread>4'))
    for t in r['thread']:
        if set(t)!={'from','date','body'}: errs.append((r['id'],'thread keys'))
        if not OFF.match(t['date']) or datetime.datetime.fromisoformat(t['date'])>=d: errs.append((r['id'],'thread date',t['date']))
    per[r['persona']][r['urgency']]+=1
for p,c in per.items():
    n=sum(c.values())
    if not 55<=n<=70: errs.append((p,'count',n))
tot=Counter(r['urgency'] for r in rows)
print('total',len(rows),dict(tot))
for p,c in per.items(): n=sum(c.values()); print(f"{p:11s} {n:3d} high={c['high']:2d} ({100*c['high']/n:.0f}%) medium={c['medium']:2d} low={c['low']:2d}")
print('with thread:',sum(1 for r in rows if r['thread']),' with cc:',sum(1 for r in rows if r['cc']),' with headers:',sum(1 for r in rows if r['headers']),' persona not in to:',sum(1 for r in rows if not any(x for x in r['to'] if 'example' in x) ))
print('ERRORS',len(errs)); [print(e) for e in errs[:30]]
