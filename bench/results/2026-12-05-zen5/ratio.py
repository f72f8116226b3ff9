import sys,re,statistics as st,collections
# per round: membw MB/s and kernel MB/s; print per-impl median ratio kernel/membw(1GiB) per threads
rounds=[];cur=None
for l in open(sys.argv[1]):
    if l.startswith('# round'): cur={};rounds.append(cur);continue
    f=l.split()
    if not f or not f[0].startswith('Bench'): continue
    name=re.sub(r'-\d+$','',f[0])
    mbs=None
    for i in range(len(f)):
        if f[i]=='MB/s': mbs=float(f[i-1])
    cur[name]=mbs
ref=sys.argv[2] if len(sys.argv)>2 else '1GiB'
res=collections.defaultdict(list); mem=collections.defaultdict(list)
for r in rounds:
    for t in (1,2):
        m=r.get(f'BenchmarkMemRead/size={ref}/threads={t}')
        if m is None: continue
        mem[t].append(m)
        for k,v in r.items():
            if 'MemRead' in k or f'threads={t}/' not in k: continue
            res[k].append(v/m)
for t in (1,2): print('membw',ref,t,'median MB/s',st.median(mem[t]),'range',min(mem[t]),max(mem[t]))
for k in sorted(res):
    v=res[k]; print(f'{k}  median {st.median(v):.3f}  [{min(v):.3f}-{max(v):.3f}] n={len(v)}')
