#!/usr/bin/env bash
# trax query's trax_metric(): the rule metrics from SQL, with BART's figures on its own trace.
. "$(dirname "$0")/../lib.sh"
f=$TRACES/bart/raw_trace.dat
need_shared "$f" "trax_metric() on bart/raw_trace.dat" || finish
got=$(q "$f" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": \"ls\", \"edges\": \"drop\"}')")
is "$got" 3473720 "runtime of ls with edges dropped: 3473720 ns (BART: 0.003474 s)"
got=$(q "$f" "SELECT trax_metric('{\"metric\": \"residency\", \"task\": \"ls\", \"cpus\": [0, 3, 4, 5], \"edges\": \"drop\", \"expect\": \"> 0 %\"}')")
is "$got" 100 "residency of ls on CPUs 0,3,4,5: 100 %"
got=$(q "$f" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": \"nobody\"}') IS NULL")
is "$got" 1 "a selector that matches nothing gives NULL"
out=$("$TRAX" query "$f" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": \"trace-cmd\"}')" 2>&1)
is "$?" 2 "several matching tasks without aggregate: an SQL error, exit 2"
case "$out" in *"add \"aggregate\""*) _result 0 "the error says to add an aggregate" ;;
*) _result 1 "the error says to add an aggregate" "$out" ;; esac
got=$(q "$f" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": \"trace-cmd\", \"aggregate\": \"sum\", \"edges\": \"drop\"}') = (SELECT sum(s.dur) FROM sched_slice s WHERE s.clipped = 0 AND s.utid IN (SELECT utid FROM thread_comm WHERE comm = 'trace-cmd'))")
is "$got" 1 "aggregate sum equals the plain SQL sum over sched_slice"
finish
