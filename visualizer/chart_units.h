/* chart_units.h: readable numbers for the chart's axes and labels, shared by
 * the PNG and gnuplot renderers: binary byte units (MiB means 2^20 bytes,
 * everywhere), time units picked from the file's time unit and range
 * (ms -> ms/s/min, instructions -> k/M/G, bytes -> B/KiB/MiB/GiB), and
 * "nice" tick steps (1, 2, 2.5 or 5 times a power of ten). */
#ifndef MT_CHART_UNITS_H
#define MT_CHART_UNITS_H

#include <stddef.h>
#include "profile.h"

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

/* "21.6 MiB", "512 KiB", "0 B": three significant digits. */
void vis_chart_fmt_bytes(double bytes, char *out, size_t outsz);
/* A time in the file's unit, in the unit that suits it: "1.23 s",
 * "850 ms", "2.5 min", "12.3 M instructions", "4.0 MiB" (for time_unit B). */
void vis_chart_fmt_time(vis_unit unit, double t, char *out, size_t outsz);
/* value/sc.div with decimals digits and the suffix ("2.5 MiB", "0"). */
void vis_fmt_scaled(double value, vis_scale sc, int decimals, char *out, size_t outsz);

#endif
