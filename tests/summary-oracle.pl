#!/usr/bin/perl
# tests/summary-oracle.pl: an independent reading of a Massif-format file
# for t207, written apart from memtime-vis's C parser. It reads FILE (and
# FILE.memtime when present), works out what memtime-vis's summary must say
# (the command, the time unit, the last snapshot, the snapshot counts, the
# peak: the snapshot the file marks, else the largest total of heap, extra
# heap and stacks; the largest total beside it where that is elsewhere; the
# snapshot whose tree gives
# the top sites, those sites in file order with their share, named by the
# rules checked in check_name below, the rest summed; the sites
# that held at least 5% of the peak at some point but are not listed, by
# their largest size; the phase marks; with memtime's exact outline in the
# companion, the true peak when the samples miss it and the largest bursts,
# by the rule of docs/memtime-vis.1 worked out here on the spans) and checks the
# summary text SUMMARY line by line against it:
#   perl summary-oracle.pl [--top=N] FILE SUMMARY
# Exact numbers (byte counts, snapshot numbers, times after "time=") must be
# equal; human-readable quantities ("240.4 KiB", "1.00 s", "298.64 k
# instr") must be the exact value rounded to the digits shown; percentages
# within 0.05 of the exact share. Prints each disagreement; exit 0 when
# there is none, 1 otherwise.
use strict;
use warnings;

my $top = 8;
if (@ARGV && $ARGV[0] =~ /^--top=(\d+)$/) { $top = $1; shift @ARGV; }
@ARGV == 2 or die "usage: summary-oracle.pl [--top=N] FILE SUMMARY\n";
my ($file, $summary) = @ARGV;

# --- the file
my ($cmd, $unit, @snaps, $cur, $depth1);
# A site with no name ("0x...: ??? (in obj)") is shown by its nearest named
# caller: the first named node down its chain of first children, the
# caller's name without its location: "??? called by NAME (in obj)". The
# label is fixed where the site first appears (%shown, by the raw label).
my (%shown, $pending, $chain);
sub unnamed { $_[0] =~ /^0x[0-9A-Fa-f]+: \?\?\?(?: |$)/ }
sub settle { my $as = shift; $shown{$pending->[1]} = $pending->[0][1] = $as; undef $pending }
open my $fh, '<', $file or die "$file: $!\n";
while (my $l = <$fh>) {
    chomp $l;
    if    ($l =~ /^cmd: (.*)$/)        { $cmd = $1 }
    elsif ($l =~ /^time_unit: (\S+)$/) { $unit = $1 }
    elsif ($l =~ /^snapshot=(\d+)$/)   { settle($pending->[0][1]) if $pending;
                                         $cur = { n => $1, sites => [] }; push @snaps, $cur }
    elsif ($l =~ /^(time|mem_heap_B|mem_heap_extra_B|mem_stacks_B)=(\d+)$/) { $cur->{$1} = $2 }
    elsif ($l =~ /^heap_tree=(\w+)$/)  { $cur->{kind} = $1 }
    elsif ($l =~ /^ n\d+: (\d+) (.*)$/) {
        my ($b, $label) = ($1, $2);
        settle($pending->[0][1]) if $pending;
        my $site = [ $b, $label ];                 # label with its address
        push @{ $cur->{sites} }, $site;
        if (unnamed($label)) {
            if (exists $shown{$label}) { $site->[1] = $shown{$label} }
            else { $pending = [ $site, $label ]; $chain = 2 }
        }
    }
    elsif ($pending && $l =~ /^( +)n\d+: \d+ (.*)$/) {
        my ($d, $label) = (length $1, $2);
        if ($d != $chain) { settle($pending->[0][1]) }
        elsif ($label =~ /^0x[0-9A-Fa-f]+: (.*)$/ && !unnamed($label)) {
            my $fn = $1;
            $fn =~ s/^(.*) \(.*\)$/$1/;
            (my $as = $pending->[0][1]) =~ s/^(0x[0-9A-Fa-f]+: )\?\?\?/$1??? called by $fn/;
            settle($as);
        }
        else { $chain++ }
    }
}
settle($pending->[0][1]) if $pending;
close $fh;
die "$file: no snapshot\n" unless @snaps;
my @marks;
# The exact outline: every "o:" bucket [start, start+W), a flat span at the
# previous last value over each gap, a flat one after the last bucket to
# end=, the last cut at end=. Spans: [start, end, min, max, last].
my ($o_width, $o_end, @spans);
if (open my $ch, '<', "$file.memtime") {
    while (my $l = <$ch>) {
        push @marks, [ $1, $2 ] if $l =~ /^mark: time=(\d+) (.*)$/;
        ($o_width, $o_end) = ($1, $2) if $l =~ /^outline: width=(\d+) end=(\d+)\s*$/;
        if ($l =~ /^o: (\d+) (\d+) (\d+) (\d+) \d+ \d+ \d+\s*$/) {
            my ($st, $mn, $mx, $la) = ($1, $2, $3, $4);
            push @spans, [ $spans[-1][1], $st, ($spans[-1][4]) x 3 ] if @spans && $spans[-1][1] < $st;
            push @spans, [ $st, $st + $o_width, $mn, $mx, $la ];
        }
    }
    close $ch;
    if (@spans) {
        push @spans, [ $spans[-1][1], $o_end, ($spans[-1][4]) x 3 ] if $spans[-1][1] < $o_end;
        $spans[-1][1] = $o_end if $spans[-1][1] > $o_end;
    }
}

sub total { my $s = shift; $s->{mem_heap_B} + $s->{mem_heap_extra_B} + $s->{mem_stacks_B} }
sub has_tree { my $s = shift; $s->{kind} eq 'detailed' || $s->{kind} eq 'peak' }

my ($largest, $marked, $best_tree);
for my $s (@snaps) {
    $largest = $s if !$largest || total($s) > total($largest)
                     || (total($s) == total($largest) && $s->{kind} eq 'peak');
    $marked = $s if $s->{kind} eq 'peak';
    $best_tree = $s if has_tree($s) && (!$best_tree || total($s) > total($best_tree));
}
my $peak = $marked // $largest;
my $tree = has_tree($peak) ? $peak : $marked ? $marked : $best_tree;
my $n_detailed = grep { has_tree($_) } @snaps;

# Sites over the run: a depth-1 label (with its address) other than an "in N
# places" line; its name drops the address, and gets " @ADDR" before its
# location where another site's name reads the same.
sub is_site { $_[0] !~ /^in \d+ places?, .*below massif's threshold/ }
sub bare { my $l = shift; $l =~ s/^0x[0-9A-Fa-f]+: //; $l }
my (%largest_of, %when_of, %tie_of);
for my $s (grep { has_tree($_) } @snaps) {
    my %here;
    $here{ $_->[1] } += $_->[0] for grep { is_site($_->[1]) } @{ $s->{sites} };
    for my $lab (keys %here) {
        if (!exists $largest_of{$lab} || $here{$lab} > $largest_of{$lab}) {
            $largest_of{$lab} = $here{$lab};
            $when_of{$lab} = $s;
        }
        $tie_of{$lab} = $here{$lab} if $tree && $s == $tree;
    }
}

# Names (the rules of docs/memtime-vis.1, NAMES), checked rather than
# recomputed: the printed name must be the label without its address,
# Rust's hashes ("::h" and 16 hex digits) dropped, the location reduced to
# its last path part without a library's build hash, where every "…"
# stands for whole generic or argument lists or whole "::" segments (it
# sits between "<" and ">", "(" and ")", or "::" and "::"), and the last
# segment, the function's own name, is whole; a name that fits in 56
# characters is printed whole; " @ADDR" only with the label's own address.
# And one name per site, no two sites one name, in every section.
my $MAX = 56;
sub expected_full {
    my $n = bare(shift);
    $n =~ s/::h[0-9a-f]{16}(?![\w\$])//g;
    if ($n =~ /^(.*) \(in ([^()]*)\)$/) {
        my ($f, $o) = ($1, $2);
        $o =~ s{.*/}{};
        $o =~ s/-[0-9a-f]{12,}(?=\.|$)//;
        $n = "$f (in $o)";
    } elsif ($n =~ /^(.*) \(([^()]*):(\d+)\)$/) {
        my ($f, $file, $line) = ($1, $2, $3);
        $file =~ s{.*/}{};
        $n = "$f ($file:$line)";
    }
    return $n;
}
sub width { my $s = shift; utf8::decode($s); length $s }
my (%name_of_label, %label_of_name);
sub check_name {
    my ($printed, $lab, $what) = @_;
    return unless is_site($lab);
    my $p = $printed;
    $p =~ s/ \[\d+\]$//;                                        # an ordinal
    if ($lab =~ /^(0x[0-9A-Fa-f]+): /) { my $a = $1; $p =~ s/ \@\Q$a\E(?= |$)// }
    my $want = expected_full($lab);
    my $E = "\xE2\x80\xA6";
    if (index($p, $E) < 0) {
        bad("$what: '$printed', expected '$want'") if $p ne $want;
    } else {
        bad("$what: '$printed' is cut although '$want' fits in $MAX") if width($want) <= $MAX;
        # every ellipsis between whole delimiters
        my $q = $p;
        while ($q =~ /(.{0,2})$E(.{0,2})/g) {
            my ($l, $r) = ($1, $2);
            bad("$what: '$printed' cuts inside a word") unless ($l =~ /(<|\(|::|^| )$/ || $l eq '')
                                                             && $r =~ /^(>|\)|::)/;
        }
        my @parts = split /\Q$E\E/, $p, -1;
        my $re = join '(.+?)', map { quotemeta } @parts;
        bad("$what: '$printed' is no shortening of '$want'") unless $want =~ /^$re$/;
        # the function's own name, after the last "::" outside brackets, whole
        my $last = $p =~ /::([^:]+?)(?: \(in [^()]*\)| \([^()]*:\d+\))?$/ ? $1 : undef;
        bad("$what: '$printed' cuts the function's own name") if defined $last && $last =~ /^$E/;
    }
    if (exists $name_of_label{$lab} && $name_of_label{$lab} ne $printed) {
        bad("$what: '$lab' printed as '$printed' and as '$name_of_label{$lab}'");
    }
    if (exists $label_of_name{$printed} && $label_of_name{$printed} ne $lab) {
        bad("$what: '$printed' names two sites: '$lab' and '$label_of_name{$printed}'");
    }
    $name_of_label{$lab} = $printed;
    $label_of_name{$printed} = $lab;
}

# --- checking quantities
my @bad;
sub bad { push @bad, join '', @_ }
sub commify { my $v = reverse shift; $v =~ s/(\d{3})(?=\d)/$1,/g; scalar reverse $v }
my %mult = (B => 1, KiB => 1024, MiB => 1024**2, GiB => 1024**3, TiB => 1024**4,
            ms => 1, s => 1000, min => 60000, h => 3600000,
            instr => 1, 'k instr' => 1e3, 'M instr' => 1e6, 'G instr' => 1e9, 'T instr' => 1e12);
# near TEXT EXACT WHAT: TEXT ("240.4 KiB") is EXACT rounded to its digits.
sub near {
    my ($text, $exact, $what) = @_;
    $text =~ s/^\s+//;
    my ($num, $u) = $text =~ /^(\d+(?:\.(\d+))?) (B|KiB|MiB|GiB|TiB|ms|s|min|h|instr|[kMGT] instr)$/
        or return bad("$what: '$text' is not a number with a unit");
    my $digits = defined $2 ? length $2 : 0;
    $u = $3;
    my $slack = 0.5 * 10**(-$digits) * $mult{$u} * (1 + 1e-9);
    abs($num * $mult{$u} - $exact) <= $slack
        or bad("$what: '$text' is not $exact rounded");
}
sub pct {
    my ($text, $part, $whole, $what) = @_;
    my $want = $whole ? 100 * $part / $whole : 0;
    abs($text - $want) <= 0.05 + 1e-9 or bad("$what: $text% is not " . sprintf('%.3f', $want) . '%');
}

# --- the summary, line by line
open my $sh, '<', $summary or die "$summary: $!\n";
my @lines = map { chomp; $_ } <$sh>;
close $sh;
my $i = 0;
sub line { $i < @lines ? $lines[$i++] : '' }
sub expect_re {
    my ($re, $what) = @_;
    my $l = line();
    my @m = $l =~ $re;
    bad("$what: line " . $i . " is '$l'") unless @m;
    return @m;
}
my %unit_text = (i => 'i (instructions executed)', ms => 'ms (milliseconds)', B => 'B (bytes allocated and freed)');
my $last = $snaps[-1];

expect_re(qr/^memtime-vis summary of (.+)$/, 'title');
my ($c) = expect_re(qr/^  Command:    (.*)$/, 'command');
bad("command: '$c', file says '$cmd'") if defined $c && $c ne $cmd;
my ($u) = expect_re(qr/^  Time unit:  (.*)$/, 'time unit');
bad("time unit: '$u'") if defined $u && $u ne $unit_text{$unit};
my ($dur, $ln, $lt) = expect_re(qr/^  Duration:   (.+) \(last snapshot, (\d+), at time=([\d,]+)\)$/, 'duration');
if (defined $ln) {
    bad("duration: last snapshot $ln, file's is $last->{n}") if $ln != $last->{n};
    bad("duration: time=$lt, file says " . commify($last->{time})) if $lt ne commify($last->{time});
    near($dur, $last->{time} - $snaps[0]->{time}, 'duration');   # from the first snapshot (a fork)
}
my ($ns, $nd) = expect_re(qr/^  Snapshots:  (\d+), (\d+) detailed$/, 'snapshots');
bad("snapshots: $ns, $nd detailed; the file has " . scalar(@snaps) . ", $n_detailed")
    if defined $ns && ($ns != @snaps || $nd != $n_detailed);
my ($ph, $pb, $pt, $pn) = expect_re(qr/^  Peak:       (.+) \(([\d,]+) B\) at (.+), snapshot (\d+)$/, 'peak');
if (defined $pn) {
    bad("peak: snapshot $pn, the file's peak is $peak->{n}") if $pn != $peak->{n};
    bad("peak: $pb B, the file's peak is " . commify(total($peak))) if $pb ne commify(total($peak));
    near($ph, total($peak), 'peak total');
    near($pt, $peak->{time}, 'peak time');
}
my ($hh, $hx, $hs) = expect_re(qr/^              heap (.+), extra heap (.+), stacks (.+)$/, 'peak parts');
if (defined $hs) {
    near($hh, $peak->{mem_heap_B}, 'peak heap');
    near($hx, $peak->{mem_heap_extra_B}, 'peak extra heap');
    near($hs, $peak->{mem_stacks_B}, 'peak stacks');
}
if ($largest != $peak) {
    my ($lh, $lb, $lt, $ln) = expect_re(
        qr/^  Largest:    (.+) \(([\d,]+) B\) at (.+), snapshot (\d+): more than at the peak the file marks$/, 'largest');
    if (defined $ln) {
        bad("largest: snapshot $ln, the file's largest total is at $largest->{n}") if $ln != $largest->{n};
        bad("largest: $lb B") if $lb ne commify(total($largest));
        near($lh, total($largest), 'largest total');
        near($lt, $largest->{time}, 'largest time');
    }
}
# The true peak: the outline's highest maximum, stated when above every
# snapshot's total, in the first span that reached it.
my $otop;
for my $sp (@spans) { $otop = $sp if !$otop || $sp->[3] > $otop->[3] }
if ($otop && $otop->[3] > total($largest)) {
    my ($th, $tb, $t0, $t1, $mh, $mb) = expect_re(
        qr/^  True peak:  (.+) \(([\d,]+) B\) in \[(.+), (.+)\) by the exact outline: the samples' peak misses (.+) \(([\d,]+) B\)$/,
        'true peak');
    if (defined $mb) {
        bad("true peak: $tb B, the outline's is " . commify($otop->[3])) if $tb ne commify($otop->[3]);
        near($th, $otop->[3], 'true peak');
        near($t0, $otop->[0], 'true peak start');
        near($t1, $otop->[1], 'true peak end');
        my $miss = $otop->[3] - total($largest);
        bad("true peak: misses $mb B, expected " . commify($miss)) if $mb ne commify($miss);
        near($mh, $miss, 'true peak miss');
    }
}
if (-e "$file.memtime") {
    my ($cf) = expect_re(qr/^  Companion:  (.+)$/, 'companion');
    bad("companion: '$cf'") if defined $cf && $cf !~ /\.memtime$/;
}
expect_re(qr/^()$/, 'blank line before the sites');
if (!$tree) {
    expect_re(qr/^(Top allocation sites: none \(no detailed snapshot\))$/, 'no tree');
} else {
    if ($tree == $peak) {
        my ($sn, $st) = expect_re(qr/^Top allocation sites at the peak \(snapshot (\d+), (.+)\):$/, 'sites heading');
        bad("sites heading: snapshot $sn") if defined $sn && $sn != $peak->{n};
        near($st, total($peak), 'sites heading total') if defined $st;
    } else {
        my $why = $tree == $marked ? 'marked as the peak in the file' : 'the largest detailed one';
        my ($sn, $st, $stt, $w) = expect_re(
            qr/^The peak has no tree\. Top allocation sites at snapshot (\d+) \((.+) at (.+)\), (.+):$/, 'sites heading');
        if (defined $sn) {
            bad("sites heading: snapshot $sn, expected $tree->{n}") if $sn != $tree->{n};
            near($st, total($tree), 'sites heading total');
            near($stt, $tree->{time}, 'sites heading time');
            bad("sites heading: '$w', expected '$why'") if $w ne $why;
        }
    }
    my @sites = @{ $tree->{sites} };
    my $whole = total($tree);
    expect_re(qr/^(  \(none: the heap is empty there\))$/, 'no sites') unless @sites;
    for my $k (0 .. $#sites) {
        last if $k >= $top;
        my ($b, $label) = @{ $sites[$k] };
        my ($no, $h, $p, $lab) = expect_re(qr/^  ([ \d]\d)\. (.{10}) ([ \d]{3}\.\d)%  (.*)$/, "site " . ($k + 1));
        next unless defined $lab;
        bad("site " . ($k + 1) . ": numbered $no") if $no != $k + 1;
        check_name($lab, $label, "site " . ($k + 1));
        near($h, $b, "site " . ($k + 1) . " bytes");
        pct($p, $b, $whole, "site " . ($k + 1) . " share");
    }
    if (@sites > $top) {
        my ($rb, $n) = (0, @sites - $top);
        $rb += $_->[0] for @sites[$top .. $#sites];
        my ($h, $p, $m, $s) = expect_re(qr/^      (.{10}) ([ \d]{3}\.\d)%  (\d+) more site(s?)$/, 'the rest');
        if (defined $m) {
            bad("the rest: $m more sites, expected $n") if $m != $n || ($n == 1) != ($s eq '');
            near($h, $rb, 'the rest, bytes');
            pct($p, $rb, $whole, 'the rest, share');
        }
    }
}
# Sites that held at least 5% of the peak at some point, not listed above.
my %listed;
if ($tree) { $listed{ $_->[1] } = 1 for grep { defined } @{ $tree->{sites} }[0 .. $top - 1] }
my @big = sort { $largest_of{$b} <=> $largest_of{$a} || ($tie_of{$b} // 0) <=> ($tie_of{$a} // 0) || $a cmp $b }
          grep { !$listed{$_} && $largest_of{$_} > 0 && 20 * $largest_of{$_} >= total($peak) } keys %largest_of;
if (@big && total($peak) > 0) {
    expect_re(qr/^(Other sites that held at least 5% of the peak at some point \(largest size, when\):)$/, 'big sites heading');
    for my $lab (@big) {
        my ($h, $p, $t, $n, $name) = expect_re(qr/^      (.{10}) ([ \d]{3}\.\d)%  at (.+) \(snapshot (\d+)\)  (.*)$/,
                                               "big site '$lab'");
        next unless defined $name;
        near($h, $largest_of{$lab}, "big site '$lab' bytes");
        pct($p, $largest_of{$lab}, total($peak), "big site '$lab' share");
        near($t, $when_of{$lab}->{time}, "big site '$lab' time");
        bad("big site '$lab': snapshot $n, expected $when_of{$lab}->{n}") if $n != $when_of{$lab}->{n};
        check_name($name, $lab, "big site");
    }
}
if (@marks) {
    expect_re(qr/^()$/, 'blank line before the marks');
    expect_re(qr/^(Phase marks:)$/, 'marks heading');
    for my $m (@marks) {
        my ($t, $lab) = expect_re(qr/^  (.{12})  (.*)$/, "mark '$m->[1]'");
        next unless defined $lab;
        bad("mark: '$lab', the companion says '$m->[1]'") if $lab ne $m->[1];
        near($t, $m->[0], "mark '$m->[1]' time");
    }
}
# Bursts: every span's maximum is a top. The level before it: the lowest
# value back to the last earlier span at least as high (the top's span by the
# value it entered with; 0 with none); after it: the lowest value up to the
# next higher span or the end (the top's span by its last value). Height:
# the top above the higher of the two, at least 5% of the outline's maximum.
# Its duration: the spans around it with a maximum above level + height/2;
# one longer than half the outline is not a burst. Largest first, ties by
# time; the tree: the snapshot with a tree within the duration nearest the
# top's span (ties: the larger total), its largest site.
if (defined $o_width) {
    my @b;
    my $n = @spans;
    my $need = int(($otop ? $otop->[3] : 0) * 0.05) || 1;
    for my $i (0 .. $n - 1) {
        my $mx = $spans[$i][3];
        my ($p) = grep { $spans[$_][3] >= $mx } reverse 0 .. $i - 1;
        my ($q) = grep { $spans[$_][3] > $mx } $i + 1 .. $n - 1;
        my $before = 0;
        if (defined $p) {
            $before = $spans[$i - 1][4];
            $before = $_->[2] < $before ? $_->[2] : $before for @spans[$p + 1 .. $i - 1];
        }
        my $after = $spans[$i][4];
        $after = $_->[2] < $after ? $_->[2] : $after for @spans[$i + 1 .. (defined $q ? $q - 1 : $n - 1)];
        my $level = $before > $after ? $before : $after;
        push @b, [ $i, $level, $mx - $level ] if $mx - $level >= $need;
    }
    @b = sort { $b->[2] <=> $a->[2] || $a->[0] <=> $b->[0] } @b;
    my @kept;
    for my $c (@b) {
        my ($i, $level, $h) = @$c;
        my $half = $level + int($h / 2);
        my ($a, $z) = ($i, $i);
        $a-- while $a > 0 && $spans[$a - 1][3] > $half;
        $z++ while $z < $n - 1 && $spans[$z + 1][3] > $half;
        next if $spans[$z][1] - $spans[$a][0] > int(($spans[-1][1] - $spans[0][0]) / 2);
        push @kept, [ @$c, $spans[$a][0], $spans[$z][1] ];
        last if @kept == 20;
    }
    expect_re(qr/^()$/, 'blank line before the bursts');
    if (!@kept) {
        expect_re(qr/^(Bursts \(exact outline\): none rose by 5% of its maximum and came back down)$/, 'no bursts');
    } else {
        expect_re(qr/^(Bursts \(exact outline; rises by 5% of its maximum or more that came back down, largest first\):)$/,
                  'bursts heading');
    }
    for my $k (0 .. $#kept) {
        last if $k == 5;
        my ($i, $level, $h, $st, $en) = @{ $kept[$k] };
        my ($ts, $te) = @{ $spans[$i] }[0, 1];
        my ($tt, $hh, $lv, $du, $rest) = expect_re(qr/^  at (.{10})  (.{10}) above (.{10})  for (.{10})  (.*)$/,
                                                   "burst " . ($k + 1));
        next unless defined $rest;
        near($tt, $ts, "burst " . ($k + 1) . " time");
        $hh =~ s/^ *\+// or bad("burst " . ($k + 1) . ": height '$hh' without its '+'");
        near($hh, $h, "burst " . ($k + 1) . " height");
        near($lv, $level, "burst " . ($k + 1) . " level");
        near($du, $en - $st, "burst " . ($k + 1) . " duration");
        my ($best, $bd);
        for my $j (0 .. $#snaps) {
            my $s = $snaps[$j];
            next unless has_tree($s) && $s->{time} >= $st && $s->{time} < $en;
            my $d = $s->{time} < $ts ? $ts - $s->{time} : $s->{time} >= $te ? $s->{time} - $te + 1 : 0;
            ($best, $bd) = ($j, $d) if !defined $best || $d < $bd
                                       || ($d == $bd && total($s) > total($snaps[$best]));
        }
        my $want = 'no tree during it';
        if (defined $best) {
            my ($site);
            for my $x (grep { defined } @{ $snaps[$best]{sites} }) {   # (a slice above pads it)
                $site = $x if is_site($x->[1]) && $x->[0] > 0 && (!$site || $x->[0] > $site->[0]);
            }
            $want = "snapshot $best: " . ($site ? "SIZE NAME" : 'no site');
            if ($site && $rest =~ /^snapshot (\d+): (\S+ \S+) (.*)$/) {
                my ($sn, $sb, $nm) = ($1, $2, $3);
                near($sb, $site->[0], "burst " . ($k + 1) . " site bytes");
                check_name($nm, $site->[1], "burst " . ($k + 1) . " site");
                $rest = "snapshot $sn: SIZE NAME";
            }
        }
        bad("burst " . ($k + 1) . ": '$rest', expected '$want'") if $rest ne $want;
    }
    if (@kept > 5) {
        my ($al, $m) = expect_re(qr/^  \.\.\. (at least )?(\d+) more$/, 'more bursts');
        bad("more bursts: $m, expected " . (@kept - 5)) if defined $m && $m != @kept - 5;
    }
}
# Then the analysis sections (Run end, Growing, Last moments, counts), which
# tests/t610 and t611 check against programs and series of known answers.
$i += 2 if $i + 1 < @lines && $lines[$i] eq ''
           && $lines[$i + 1] =~ /^(Run end: |Growing|Still live|Most allocations)/;
$i = @lines if $i > 0 && $i <= @lines && $lines[$i - 1] =~ /^(Run end: |Growing|Still live|Most allocations)/;
bad("line " . ($i + 1) . " is more than expected: '$lines[$i]'") if $i < @lines;

print "$_\n" for @bad;
exit(@bad ? 1 : 0);
