#!/bin/bash
# usage: own.sh PT  -> starts owner, imports /tmp/h-scale3/o1/m.mbox, samples RSS
cd /work/wt/h-scale3
D=/tmp/h-scale3/o1/data-$1
rm -rf $D
H3_PT=$1 node $NODEFLAGS bin/mailroom.mjs start --headless --vault /tmp/h-scale3/o1/v --data-dir $D --port 0 > $D.out 2> $D.err &
PID=$!
sleep 10
node bin/mailroom.mjs mail inbox-add me@acme.example --id me --data-dir $D --vault /tmp/h-scale3/o1/v > /dev/null
B=$(grep VmRSS /proc/$PID/status | awk '{print $2}')
PEAK=$B
node bin/mailroom.mjs mail import /tmp/h-scale3/o1/m.mbox --inbox me --data-dir $D --vault /tmp/h-scale3/o1/v > $D.imp &
IMP=$!
S=$(date +%s.%N)
N=0; while kill -0 $IMP 2>/dev/null; do R=$(grep VmRSS /proc/$PID/status | awk "{print \$2}"); [ $R -gt $PEAK ] && PEAK=$R; N=$((N+1)); [ $((N % 10)) -eq 0 ] && echo -n "$((R/1024)) "; sleep 0.1; done; echo
E=$(date +%s.%N)
echo "PT=$1 before=$((B/1024))MB peak=$((PEAK/1024))MB secs=$(echo "$E - $S" | bc) $(cat $D.imp)"
kill $PID
