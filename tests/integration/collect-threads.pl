# tests/integration/collect-threads.pl: facts of a `trace-cmd report -t` (on stdin), computed
# here independently of trax, for collect-threads.sh. Prints lines:
#   runtime PID NS MISSES BOUNDED
#                           NS: time PID ran, the sum of switch-out - switch-in on the same
#                           CPU; MISSES: its switch-outs on a CPU where it was not the task
#                           last switched in (not in NS); BOUNDED: NS plus each such slice
#                           from its bound (doc/db.md, sched_slice clipped 8): the latest of
#                           the CPU's previous switch, PID's last sched_wakeup(_new) or
#                           sched_migrate_task to that CPU (a sched_waking only when PID had
#                           neither before) and PID's last switch-out (not
#                           for pid 0: each CPU has its own idle task); and, when PID was
#                           the task last switched in on a CPU where another task is then
#                           switched out, its slice from that switch-in to the bound
#   flagged N               slices bounded so (pid != 0, not of zero length)
#   unseen CPU N            switch-outs on CPU of tasks not the one last switched in there
#   born PID NS             its first task_newtask
#   dead PID NS STATE       its last switch-out in state X or Z
#   exit PID NS             its sched_process_exit
#   out PID NS STATE        every switch-out of PID (state letters as printed)
#   pids N                  distinct pids other than 0 that events name (common_pid, switch,
#                           wakeup, migrate, fork, newtask, exec, exit, rename; not free: a
#                           migrated task exists, a freed one is gone)
use strict;
use warnings;

my (%on, %run, %miss, %bounded, %pids, %arrive, %lastout, %unseen);
my $flagged = 0;
while (my $line = <STDIN>) {
	next unless $line =~ /^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)$/;
	my ($cpu, $t, $ev, $rest) = ($3 + 0, $4 * 1000000000 + $5, $6, $7);
	$pids{$2} = 1;
	if ($ev eq 'sched_switch' &&
	    $rest =~ /^.*:(\d+) \[-?\d+\] (\S+) ==> .*:(\d+) \[-?\d+\]\s*$/) {
		my ($prev, $state, $next) = ($1, $2, $3);
		if (defined $on{$cpu} && $on{$cpu}[0] == $prev) {
			$run{$prev} += $t - $on{$cpu}[1];
			$bounded{$prev} += $t - $on{$cpu}[1];
		} elsif (defined $on{$cpu}) {
			my $bound = $on{$cpu}[1];
			my $a = $arrive{$prev};
			$bound = $a->[1] if $a && $a->[0] == $cpu && $a->[1] > $bound;
			# the idle task (pid 0) is one per CPU: another CPU's switch-out says nothing
			$bound = $lastout{$prev}
				if $prev && defined $lastout{$prev} && $lastout{$prev} > $bound;
			$miss{$prev}++;
			$unseen{$cpu}++;
			$run{$prev} //= 0;
			$bounded{$prev} += $t - $bound;
			$flagged++ if $prev;
			# what was believed to run there ran until the bound (if it ran at all)
			my $b = $on{$cpu}[0];
			if ($bound > $on{$cpu}[1]) {
				$run{$b} //= 0;
				$bounded{$b} += $bound - $on{$cpu}[1];
				$flagged++ if $b;
			}
		}
		$lastout{$prev} = $t;
		print "out $prev $t $state\n" if $prev;
		print "dead $prev $t $state\n" if $prev && $state =~ /^[XZ]/;
		$on{$cpu} = [$next, $t];
		$pids{$prev} = $pids{$next} = 1;
	} elsif ($ev =~ /^sched_wakeup/ && $rest =~ /:(\d+) \[-?\d+\] CPU:(\d+)/) {
		$pids{$1} = 1;
		$arrive{$1} = [$2 + 0, $t];
	} elsif ($ev eq 'sched_waking' && $rest =~ /\bpid=(\d+) .*target_cpu=(\d+)/) {
		$pids{$1} = 1;
		$arrive{$1} //= [$2 + 0, $t];
	} elsif ($ev eq 'sched_migrate_task' && $rest =~ /\bpid=(\d+) .*dest_cpu=(\d+)/) {
		$pids{$1} = 1;
		$arrive{$1} = [$2 + 0, $t];
	} elsif ($ev eq 'task_newtask' && $rest =~ /^pid=(\d+)/) {
		print "born $1 $t\n";
		$pids{$1} = 1;
	} elsif ($ev eq 'sched_process_exit' && $rest =~ /\bpid=(\d+)/) {
		print "exit $1 $t\n";
		$pids{$1} = 1;
	} elsif ($ev eq 'sched_process_fork' && $rest =~ /child_pid=(\d+)/) {
		$pids{$1} = 1;
	} elsif ($ev =~ /^(sched_process_exec|task_rename)$/ &&
		 $rest =~ /\bpid=(\d+)/) {
		$pids{$1} = 1;
	}
}
print "runtime $_ $run{$_} ", $miss{$_} // 0, " $bounded{$_}\n" for sort { $a <=> $b } keys %run;
print "unseen $_ $unseen{$_}\n" for sort { $a <=> $b } keys %unseen;
print "flagged $flagged\n";
delete $pids{0};
print "pids ", scalar(keys %pids), "\n";
