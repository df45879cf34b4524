/* chart_units.c: unit choice and number formatting for the chart (see
 * chart_units.h). */
#include "chart_units.h"

#include <math.h>
#include <stdio.h>

static const char *const byte_suffix[] = { "B", "KiB", "MiB", "GiB", "TiB" };

vis_scale vis_bytes_scale(double max_B)
{
    vis_scale s = { 1, "B" };
    for (int k = 1; k < 5 && max_B >= 1024.0; k++) {
        max_B /= 1024.0;
        s.div *= 1024.0;
        s.suffix = byte_suffix[k];
    }
    return s;
}

vis_scale vis_time_scale(vis_unit unit, double max_t)
{
    vis_scale s = { 1, "" };
    switch (unit) {
    case VIS_UNIT_MS:
        s.suffix = "ms";
        if (max_t >= 180000) { s.div = 60000; s.suffix = "min"; }
        else if (max_t >= 2000) { s.div = 1000; s.suffix = "s"; }
        break;
    case VIS_UNIT_B:
        return vis_bytes_scale(max_t);
    case VIS_UNIT_I:
        if (max_t >= 2e9) { s.div = 1e9; s.suffix = "G"; }
        else if (max_t >= 2e6) { s.div = 1e6; s.suffix = "M"; }
        else if (max_t >= 2e3) { s.div = 1e3; s.suffix = "k"; }
        break;
    }
    return s;
}

void vis_time_title(vis_unit unit, vis_scale sc, char *out, size_t outsz)
{
    switch (unit) {
    case VIS_UNIT_MS:
        snprintf(out, outsz, "time (%s)", sc.suffix);
        break;
    case VIS_UNIT_B:
        snprintf(out, outsz, "time (%s allocated and freed)", sc.suffix);
        break;
    case VIS_UNIT_I:
        if (sc.suffix[0])
            snprintf(out, outsz, "time (instructions, %s)", sc.suffix);
        else
            snprintf(out, outsz, "time (instructions)");
        break;
    }
}

double vis_nice_step(double range, int max_ticks)
{
    if (!(range > 0) || max_ticks < 1)
        return 1;
    /* The smallest of 1, 2, 2.5, 5 x 10^k that needs at most max_ticks
     * intervals: the least headroom above the data. */
    static const double mant[] = { 1, 2, 2.5, 5 };
    double p = pow(10, floor(log10(range / max_ticks)));
    for (int k = 0; k < 3; k++, p *= 10)
        for (int m = 0; m < 4; m++)
            if (range / (mant[m] * p) <= max_ticks + 1e-9)
                return mant[m] * p;
    return p;
}

int vis_step_decimals(double step)
{
    for (int d = 0; d < 3; d++) {
        double scaled = step * pow(10, d);
        if (fabs(scaled - floor(scaled + 0.5)) < 1e-6 * (scaled > 1 ? scaled : 1))
            return d;
    }
    return 3;
}

void vis_fmt_scaled(double value, vis_scale sc, int decimals, char *out, size_t outsz)
{
    double v = value / sc.div;
    if (fabs(v) < 1e-9)
        snprintf(out, outsz, "0");
    else
        snprintf(out, outsz, "%.*f%s%s", decimals, v, sc.suffix[0] ? " " : "", sc.suffix);
}

/* Three significant digits, no more decimals than needed for that. */
static void fmt3(double v, vis_scale sc, char *out, size_t outsz)
{
    double x = v / sc.div;
    int dec = x >= 99.95 || sc.div == 1 ? 0 : x >= 9.995 ? 1 : 2;
    snprintf(out, outsz, "%.*f %s", dec, x, sc.suffix);
}

void vis_chart_fmt_bytes(double bytes, char *out, size_t outsz)
{
    fmt3(bytes, vis_bytes_scale(bytes), out, outsz);
}

void vis_chart_fmt_time(vis_unit unit, double t, char *out, size_t outsz)
{
    vis_scale sc = vis_time_scale(unit, t);
    if (unit == VIS_UNIT_I) {
        double x = t / sc.div;
        int dec = sc.div == 1 || x >= 99.95 ? 0 : x >= 9.995 ? 1 : 2;
        snprintf(out, outsz, "%.*f %s%sinstructions", dec, x, sc.suffix,
                 sc.suffix[0] ? " " : "");
        return;
    }
    if (unit == VIS_UNIT_MS && sc.div == 1) {
        snprintf(out, outsz, "%.0f ms", t);
        return;
    }
    fmt3(t, sc, out, outsz);
}
