#!/usr/bin/perl
# clock-compare.pl EVENTS PROFILE [FINAL_MAX_MS]: holds a Massif-format
# profile's times (--time-unit=ms) against the events a program stamped
# itself with CLOCK_MONOTONIC (tests/progs/clock_events.c prints them).
#
# Each event is the snapshot where mem_heap_B grows by exactly the event's
# size. The program read its clock just before (b) and just after (a) the
# allocation, so for events i < j the true interval lies in
# [b_j - a_i, a_j - b_i], however loaded the machine was. The profile's
# interval T_j - T_i must lie in that range widened by the tolerance
# max(10 ms, 5% of the interval): the guarantee of docs/memtime.1.
# Every pair is checked, so one stale stamp shows wherever it is.
#
# If the profile has a companion file (PROFILE.memtime) with the marks
# "event K" the program sets, each mark is checked the same way, against
# every event's snapshot and against the other marks.
#
# The last snapshot (memtime's final one, at exit) must come at least as
# long after the last event as the program ran after it ("end" line), less
# the tolerance, and no later than FINAL_MAX_MS (the run's wall time
# measured from outside) when given.
#
# Prints one line per event, the snapshots between events (the test of
# samples reads them), and a verdict line; exits 1 on any violation,
# 2 on unreadable input.
use strict;
use warnings;

my ($events_file, $profile, $final_max) = @ARGV;
die "usage: clock-compare.pl EVENTS PROFILE [FINAL_MAX_MS]\n" unless defined $profile;

my (@ev, $end);
open my $e, '<', $events_file or die "$events_file: $!\n";
while (<$e>) {
   if (/^event (\d+) (\d+) (\d+) (\d+)$/) {
      push @ev, { size => $2, b => $3 / 1e6, a => $4 / 1e6 };
   } elsif (/^end (\d+)$/) {
      $end = $1 / 1e6;
   }
}
close $e;
if (!@ev || !defined $end) { print "no events in $events_file\n"; exit 2; }

my (@time, @heap);
open my $p, '<', $profile or die "$profile: $!\n";
while (<$p>) {
   if (/^time=(\d+)$/) { push @time, $1; }
   elsif (/^mem_heap_B=(\d+)$/) { push @heap, $1; }
}
close $p;
if (!@time || @time != @heap) { print "no snapshots in $profile\n"; exit 2; }

# Marks, if there is a companion file: one more stamp per event.
my %mark;
if (open my $c, '<', "$profile.memtime") {
   while (<$c>) { $mark{$2} = $1 if /^mark: time=(\d+) event (\d+)$/; }
   close $c;
}

my $bad = 0;
for my $k (0 .. $#ev) {
   for my $i (1 .. $#heap) {
      if ($heap[$i] - $heap[$i - 1] == $ev[$k]{size}) { $ev[$k]{t} = $time[$i]; $ev[$k]{i} = $i; last; }
   }
   if (!defined $ev[$k]{t}) {
      printf "event %d (size %d): no snapshot grows by its size (%d snapshots: culled?)\n",
             $k, $ev[$k]{size}, scalar @time;
      $bad++;
   }
}
exit 1 if $bad;

sub tol { my $x = shift; my $t = 0.05 * abs($x); return $t > 10 ? $t : 10; }

my $worst = 0;
# Checks stamp t_j of event j against stamp t_i of event i < j (i == j for
# a mark against its own event's snapshot).
sub err_of {
   my ($i, $ti, $j, $tj) = @_;
   my $got = $tj - $ti;
   my $lo  = $i == $j ? 0 : $ev[$j]{b} - $ev[$i]{a};
   my $hi  = $ev[$j]{a} - $ev[$i]{b};
   my $err = $got < $lo ? $lo - $got : $got > $hi ? $got - $hi : 0;
   $worst = $err if $err > $worst;
   return ($err, $got, $lo, $hi);
}
for my $j (0 .. $#ev) {
   my $line = sprintf "event %d: profile %d ms", $j, $ev[$j]{t};
   for my $i (0 .. $j - 1) {
      my ($err, $got, $lo, $hi) = err_of($i, $ev[$i]{t}, $j, $ev[$j]{t});
      if ($err > tol($lo)) {
         $bad++;
         $line .= sprintf "; since event %d: %d ms, program %.1f..%.1f ms (off by %.1f)",
                          $i, $got, $lo, $hi, $err;
      } elsif ($i == $j - 1) {
         $line .= sprintf "; since event %d: %d ms, program %.1f..%.1f ms", $i, $got, $lo, $hi;
      }
   }
   if (%mark) {
      if (!defined $mark{$j}) {
         $bad++;
         $line .= "; no mark 'event $j'";
      } else {
         $line .= "; mark $mark{$j} ms";
         for my $i (0 .. $#ev) {
            # The mark comes after the event's malloc: against the events
            # before it and its own, it is the later stamp.
            my ($err, $got, $lo) = $i <= $j ? err_of($i, $ev[$i]{t}, $j, $mark{$j})
                                            : err_of($j, $mark{$j}, $i, $ev[$i]{t});
            my ($merr, $mgot, $mlo) = !defined $mark{$i} || $i == $j ? (0, 0, 0)
                                    : $i < $j ? err_of($i, $mark{$i}, $j, $mark{$j})
                                              : err_of($j, $mark{$j}, $i, $mark{$i});
            if ($err > tol($lo) || $merr > tol($mlo)) {
               $bad++;
               $line .= sprintf " (off by %.1f ms against event %d)",
                                $err > $merr ? $err : $merr, $i;
            }
         }
      }
   }
   print "$line\n";
   # The snapshots between two events (samples, when nothing allocates).
   if ($j > 0) {
      my @between = @time[$ev[$j - 1]{i} + 1 .. $ev[$j]{i} - 1];
      my @shown = @between > 8 ? (@between[0 .. 7], "...") : @between;
      printf "between events %d and %d: %d snapshots%s\n", $j - 1, $j, scalar @between,
             @between ? " (at @shown ms)" : "";
   }
}

my $last = $ev[-1];
my $final = $time[-1] - $last->{t};
my $after = $end - $last->{a};
my $fline = sprintf "last snapshot: %d ms after the last event; the program ran %.1f ms after it", $final, $after;
if ($final < $after - tol($after)) { $bad++; $fline .= " (too early)"; }
if (defined $final_max) {
   $fline .= sprintf "; run took %d ms", $final_max;
   if ($time[-1] > $final_max) { $bad++; $fline .= " (last snapshot later than the run)"; }
}
print "$fline\n";
printf "%s: worst error %.1f ms over %d events\n", $bad ? "FAIL" : "ok", $worst, scalar @ev;
exit($bad ? 1 : 0);
