#!/usr/bin/perl
# check-strict-grammar.pl FILE...: checks that each file stays inside the
# Massif format as massif-visualizer's parser (the strictest reader) accepts
# it: "desc: ", "cmd: ", "time_unit: i|ms|B", then one or more snapshot
# blocks, each exactly "#-----------", "snapshot=N" (N = 0, 1, 2, ...),
# "#-----------", time=, mem_heap_B=, mem_heap_extra_B=, mem_stacks_B=,
# heap_tree=empty|detailed|peak, and for detailed/peak a tree whose lines
# are "n<K>: <bytes> <label>" indented by exactly their depth, each node
# followed by exactly K child subtrees. No other line anywhere (no comment,
# no blank line, nothing after the last snapshot), LF line endings, at most
# one peak. Prints "FILE:LINE: expected ..., got ..." for the first defect
# of each file; exits 1 if any file is invalid, 0 otherwise.
use strict;
use warnings;

my $status = 0;
for my $file (@ARGV) {
    my $err = check($file);
    if (defined $err) { print STDERR "$err\n"; $status = 1; }
}
exit $status;

sub check {
    my ($file) = @_;
    open(my $fh, '<', $file) or return "$file: cannot open: $!";
    my @lines = <$fh>;
    close $fh;
    my $i = 0;
    my $fail = sub {
        my ($what) = @_;
        my $got = $i < @lines ? $lines[$i] : "end of file";
        $got =~ s/\n\z//;
        $got =~ s/\r/\\r/g;
        return sprintf("%s:%d: expected %s, got '%s'", $file, $i + 1, $what, $got);
    };
    for (@lines) {
        return $fail->("a line ending in LF") unless /\n\z/;
    }
    chomp(@lines);
    my $expect = sub {
        my ($re, $what) = @_;
        return 0 if $i >= @lines || $lines[$i] !~ $re;
        $i++;
        return 1;
    };
    $expect->(qr/^desc: /)                  or return $fail->("'desc: ...'");
    $expect->(qr/^cmd: /)                   or return $fail->("'cmd: ...'");
    $expect->(qr/^time_unit: (i|ms|B)$/)    or return $fail->("'time_unit: i|ms|B'");
    my ($n, $peaks) = (0, 0);
    while ($i < @lines) {
        $expect->(qr/^#-----------$/)       or return $fail->("'#-----------'");
        $expect->(qr/^snapshot=$n$/)        or return $fail->("'snapshot=$n'");
        $expect->(qr/^#-----------$/)       or return $fail->("'#-----------'");
        $expect->(qr/^time=\d+$/)           or return $fail->("'time=<n>'");
        $expect->(qr/^mem_heap_B=\d+$/)     or return $fail->("'mem_heap_B=<n>'");
        $expect->(qr/^mem_heap_extra_B=\d+$/) or return $fail->("'mem_heap_extra_B=<n>'");
        $expect->(qr/^mem_stacks_B=\d+$/)   or return $fail->("'mem_stacks_B=<n>'");
        return $fail->("'heap_tree=empty|detailed|peak'")
            unless $i < @lines && $lines[$i] =~ /^heap_tree=(empty|detailed|peak)$/;
        my $kind = $1;
        $i++;
        $peaks++ if $kind eq 'peak';
        return $fail->("at most one peak snapshot") if $peaks > 1;
        if ($kind ne 'empty') {
            my $e = tree($file, \@lines, \$i, 0);
            return $e if defined $e;
        }
        $n++;
    }
    return $fail->("at least one snapshot") if $n == 0;
    return undef;
}

# One node at depth $d and, recursively, its children.
sub tree {
    my ($file, $lines, $ip, $d) = @_;
    my $line = $$ip < @$lines ? $lines->[$$ip] : undef;
    my $indent = ' ' x $d;
    if (!defined $line || $line !~ /^\Q$indent\En(\d+): (\d+) (.+)$/) {
        my $got = defined $line ? $line : 'end of file';
        return sprintf("%s:%d: expected a tree line 'n<K>: <bytes> <label>' indented by %d, got '%s'",
                       $file, $$ip + 1, $d, $got);
    }
    my $k = $1;
    $$ip++;
    for (1 .. $k) {
        my $e = tree($file, $lines, $ip, $d + 1);
        return $e if defined $e;
    }
    return undef;
}
