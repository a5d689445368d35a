# tests/integration/collect-threads.pl: facts of a `trace-cmd report -t` (on stdin), computed
# here independently of trax, for collect-threads.sh. Prints lines:
#   runtime PID NS MISSES   time PID ran: sum of switch-out - switch-in on the same CPU;
#                           MISSES: its switch-outs on a CPU where it was not the task last
#                           switched in (that slice is not counted here)
#   born PID NS             its first task_newtask
#   dead PID NS STATE       its last switch-out in state X or Z
#   exit PID NS             its sched_process_exit
#   out PID NS STATE        every switch-out of PID (state letters as printed)
#   pids N                  distinct pids other than 0 that events name (common_pid, switch,
#                           wakeup, fork, newtask, exec, exit, rename; not free or migrate)
use strict;
use warnings;

my (%on, %run, %miss, %pids);
while (my $line = <STDIN>) {
	next unless $line =~ /^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)$/;
	my ($cpu, $t, $ev, $rest) = ($3 + 0, $4 * 1000000000 + $5, $6, $7);
	$pids{$2} = 1;
	if ($ev eq 'sched_switch' &&
	    $rest =~ /^.*:(\d+) \[-?\d+\] (\S+) ==> .*:(\d+) \[-?\d+\]\s*$/) {
		my ($prev, $state, $next) = ($1, $2, $3);
		if (defined $on{$cpu} && $on{$cpu}[0] == $prev) {
			$run{$prev} += $t - $on{$cpu}[1];
		} elsif (defined $on{$cpu}) {
			$miss{$prev}++;
		}
		print "out $prev $t $state\n" if $prev;
		print "dead $prev $t $state\n" if $prev && $state =~ /^[XZ]/;
		$on{$cpu} = [$next, $t];
		$pids{$prev} = $pids{$next} = 1;
	} elsif ($ev =~ /^sched_wakeup/ && $rest =~ /:(\d+) \[-?\d+\]/) {
		$pids{$1} = 1;
	} elsif ($ev eq 'task_newtask' && $rest =~ /^pid=(\d+)/) {
		print "born $1 $t\n";
		$pids{$1} = 1;
	} elsif ($ev eq 'sched_process_exit' && $rest =~ /\bpid=(\d+)/) {
		print "exit $1 $t\n";
		$pids{$1} = 1;
	} elsif ($ev eq 'sched_process_fork' && $rest =~ /child_pid=(\d+)/) {
		$pids{$1} = 1;
	} elsif ($ev =~ /^(sched_waking|sched_process_exec|task_rename)$/ &&
		 $rest =~ /\bpid=(\d+)/) {
		$pids{$1} = 1;
	}
}
print "runtime $_ $run{$_} ", $miss{$_} // 0, "\n" for sort { $a <=> $b } keys %run;
delete $pids{0};
print "pids ", scalar(keys %pids), "\n";
