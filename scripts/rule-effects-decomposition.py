#!/usr/bin/env python3
# Usage: scripts/rule-effects-decomposition.py DIR/comparison.json
#
# Model x rules decomposition of compare's --rule-effects games (White's
# score, draw rate, mean length): the rule effect with each network held
# fixed, the network effect with each rule set held fixed, and their means.
# Normal intervals, the cells taken as independent (each model's two cells
# share seeds and openings, so the rule effects' intervals are if anything
# too wide); length standard errors from the bootstrap intervals. Two
# variants, two models (compare --rule-effects with two --models).
import json, math, sys
j=json.load(open(sys.argv[1]))
cells={}
for e in j['rule_effects']:
    for v in e['comparison']['variants']:
        n,w,d,b=v['games'],v['white_wins'],v['draws'],v['black_wins']
        s=(w+d/2)/n; vs=((w+d*0.25)/n-s*s)/n
        dr=d/n; vd=dr*(1-dr)/n
        L=v['length']['mean']; vl=((L['hi']-L['lo'])/(2*1.96))**2
        cells[(e['trained_on'],v['variant'])]={'white score':(s,vs),'draw rate':(dr,vd),'mean length':(L['point'],vl),'wdl':(w,d,b)}
M=[e['trained_on'] for e in j['rule_effects']]
R=[v['variant'] for v in j['rule_effects'][0]['comparison']['variants']]
print("| model (rows), rules (columns) | "+" | ".join(R)+" |"); print("|---"*(len(R)+1)+"|")
for m in M:
    row=[]
    for r in R:
        c=cells[(m,r)]; s,vs=c['white score']
        row.append("%d/%d/%d, %.3f [%.3f, %.3f], draws %.3f, %.1f plies"%(*c['wdl'],s,s-1.96*math.sqrt(vs),s+1.96*math.sqrt(vs),c['draw rate'][0],c['mean length'][0]))
    print("| %s model | "%m+" | ".join(row)+" |")
def fmt(d,se,k): return ("%+.3f [%+.3f, %+.3f]" if k!='mean length' else "%+.1f [%+.1f, %+.1f]")%(d,d-1.96*se,d+1.96*se)
for k in ['white score','draw rate','mean length']:
    print("\n"+k)
    rs=[]
    for m in M:
        a,b=cells[(m,R[0])][k],cells[(m,R[1])][k]; d,se=b[0]-a[0],math.sqrt(a[1]+b[1]); rs.append((d,se))
        print("  rule effect (%s - %s), %s model: %s"%(R[1],R[0],m,fmt(d,se,k)))
    print("  rule effect, mean over models: %s"%fmt(sum(x for x,_ in rs)/2, math.sqrt(sum(s*s for _,s in rs))/2,k))
    ns=[]
    for r in R:
        a,b=cells[(M[0],r)][k],cells[(M[1],r)][k]; d,se=b[0]-a[0],math.sqrt(a[1]+b[1]); ns.append((d,se))
        print("  network effect (%s model - %s model) on %s: %s"%(M[1],M[0],r,fmt(d,se,k)))
    print("  network effect, mean over rules: %s"%fmt(sum(x for x,_ in ns)/2, math.sqrt(sum(s*s for _,s in ns))/2,k))
