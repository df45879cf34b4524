/* units.h: readable numbers for every renderer: the one formatter of bytes
 * and times for people (summary, chart, gnuplot, messages), and the chart's
 * axes: binary byte units (MiB means 2^20 bytes,
 * everywhere), time units picked from the file's time unit and range
 * (ms -> ms/s/min, instructions -> k/M/G, bytes -> B/KiB/MiB/GiB), and
 * "nice" tick steps (1, 2, 2.5 or 5 times a power of ten). */
#ifndef MT_UNITS_H
#define MT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* A profile's time unit, as its "time_unit:" line names it: instructions,
 * milliseconds, or bytes allocated and freed. */
typedef enum { VIS_UNIT_I, VIS_UNIT_MS, VIS_UNIT_B } vis_unit;

typedef struct {
    double div;            /* value / div is shown */
    const char *suffix;    /* "MiB", "s", "M", ... ("" for plain counts) */
} vis_scale;

/* The binary unit that shows max_B with at most four integer digits. */
vis_scale vis_bytes_scale(double max_B);
/* The unit for a time axis reaching max_t (in the file's unit). */
vis_scale vis_time_scale(vis_unit unit, double max_t);
/* Axis title for the time axis, e.g. "time (s)", "time (instructions, M)". */
void vis_time_title(vis_unit unit, vis_scale sc, char *out, size_t outsz);

/* The smallest step of 1, 2, 2.5 or 5 x 10^k dividing range into at most
 * max_ticks intervals. */
double vis_nice_step(double range, int max_ticks);
/* Decimals needed to print multiples of step exactly (0..3). */
int vis_step_decimals(double step);

/* The formatter of bytes for people: "1008 B", then three significant
 * digits in binary units: "1.07 KiB", "15.8 MiB", "137 KiB". Returns buf. */
char *vis_fmt_bytes(char *buf, size_t n, uint64_t bytes);
/* A time in the file's unit, three significant digits in the unit that
 * suits it: "850 ms", "1.23 s", "72.9 s", "312 s", "12.5 min", "1.50 h";
 * "950 instr", "299 k instr", "1.23 G instr"; for unit B as bytes. */
char *vis_fmt_time(char *buf, size_t n, vis_unit unit, uint64_t t);
/* 1234567 -> "1,234,567" (ms_print's commify); buf holds at least 27
 * bytes. Returns buf. */
char *vis_fmt_grouped(char *buf, uint64_t v);
/* The same digits at o, without a NUL (at most 26 bytes): returns their
 * end, for a writer that builds its lines in place. */
char *vis_put_grouped(char *o, uint64_t v);
/* value/sc.div with decimals digits and the suffix ("2.5 MiB", "0"). */
void vis_fmt_scaled(double value, vis_scale sc, int decimals, char *out, size_t outsz);

/* A signed byte count ("+24.0 KiB", "-1.00 MiB") and a rate in the file's
 * unit ("+24.0 KiB/s", "+1.2 KiB/M instr", "+512 B/MiB"). */
char *vis_fmt_delta(char *buf, size_t n, int64_t bytes);
char *vis_fmt_rate(char *buf, size_t n, vis_unit unit, double rate);

/* "100MiB", "1.5GiB", "64KiB", "512K", "10MB" (decimal), "4096" -> bytes.
 * Returns 0, or -1 when the text is not a size. */
int vis_parse_size(const char *s, uint64_t *bytes);
/* A percentage as ms_print reads one: "2", "2.5", "0.5%" (no sign, no
 * exponent). Returns 0, or -1 when the text is not one. The caller checks
 * the range. */
int vis_parse_percent(const char *s, double *pct);

#endif
