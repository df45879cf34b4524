/* units.c: unit choice and number formatting for the chart (see
 * units.h). */
#include "base/units.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* v in a unit, three significant digits ("1.23", "12.3", "123"). */
static void sig3(char *buf, size_t n, double v, const char *unit)
{
    snprintf(buf, n, "%.*f %s", v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2, v, unit);
}

char *vis_fmt_bytes(char *buf, size_t n, uint64_t bytes)
{
    static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    if (bytes < 1024) {
        snprintf(buf, n, "%u B", (unsigned)bytes);
        return buf;
    }
    double v = (double)bytes / 1024;
    int u = 0;
    /* Up a unit where three digits would round to 1024 ("1024 KiB"). */
    while (v >= 1023.5 && u < 5) {
        v /= 1024;
        u++;
    }
    sig3(buf, n, v, units[u]);
    return buf;
}

char *vis_fmt_time(char *buf, size_t n, vis_unit unit, uint64_t t)
{
    double v = (double)t;
    switch (unit) {
    case VIS_UNIT_MS:
        if (t < 1000)
            snprintf(buf, n, "%u ms", (unsigned)t);
        else if (v < 999.5e3)
            sig3(buf, n, v / 1e3, "s");
        else if (v < 599.5 * 60e3)
            sig3(buf, n, v / 60e3, "min");
        else
            sig3(buf, n, v / 3600e3, "h");
        break;
    case VIS_UNIT_I: {
        static const char *const pre[] = { "k instr", "M instr", "G instr", "T instr",
                                           "P instr", "E instr" };
        if (t < 1000) {
            snprintf(buf, n, "%u instr", (unsigned)t);
            break;
        }
        int u = 0;
        v /= 1000;
        while (v >= 999.5 && u < 5) {
            v /= 1000;
            u++;
        }
        sig3(buf, n, v, pre[u]);
        break;
    }
    case VIS_UNIT_B:
    default:
        vis_fmt_bytes(buf, n, t);
        break;
    }
    return buf;
}

char *vis_put_grouped(char *o, uint64_t v)
{
    /* Digits from the last, without snprintf: the ms_print report prints
     * one number per tree line. */
    char digits[20];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n-- > 0) {
        *o++ = digits[n];
        if (n > 0 && n % 3 == 0)
            *o++ = ',';
    }
    return o;
}

char *vis_fmt_grouped(char *buf, uint64_t v)
{
    *vis_put_grouped(buf, v) = '\0';
    return buf;
}

char *vis_fmt_delta(char *buf, size_t n, int64_t bytes)
{
    uint64_t mag = bytes < 0 ? (uint64_t)0 - (uint64_t)bytes : (uint64_t)bytes;
    if (n < 2)
        return buf;
    buf[0] = bytes < 0 ? '-' : '+';
    vis_fmt_bytes(buf + (bytes != 0), n - 1, mag);
    return buf;
}

char *vis_fmt_rate(char *buf, size_t n, vis_unit unit, double rate)
{
    /* Per second; per million instructions; per MiB allocated and freed. */
    double scale = unit == VIS_UNIT_MS ? 1000.0 : unit == VIS_UNIT_I ? 1e6 : 1048576.0;
    const char *per = unit == VIS_UNIT_MS ? "/s" : unit == VIS_UNIT_I ? "/M instr" : "/MiB";
    double v = rate * scale;
    int64_t r = fabs(v) < 9.2e18 ? (int64_t)llround(v) : (v < 0 ? INT64_MIN + 1 : INT64_MAX);
    vis_fmt_delta(buf, n, r);
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s", per);
    return buf;
}

int vis_parse_size(const char *s, uint64_t *bytes)
{
    static const struct { const char *u; double f; } units[] = {
        { "", 1 }, { "B", 1 },
        { "K", 1024.0 }, { "KiB", 1024.0 }, { "kB", 1e3 }, { "KB", 1e3 },
        { "M", 1048576.0 }, { "MiB", 1048576.0 }, { "MB", 1e6 },
        { "G", 1073741824.0 }, { "GiB", 1073741824.0 }, { "GB", 1e9 },
        { "T", 1099511627776.0 }, { "TiB", 1099511627776.0 }, { "TB", 1e12 },
    };
    size_t n = strspn(s, "0123456789.");
    if (n == 0 || s[0] == '.' || strchr(s, '.') != strrchr(s, '.') ||
        (strchr(s, '.') && strchr(s, '.') >= s + n))
        return -1;
    if (memchr(s, '.', n) && s[n - 1] == '.')
        return -1;
    char *end;
    double v = strtod(s, &end);
    if (end != s + n)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (strcmp(s + n, units[i].u) != 0)
            continue;
        double b = floor(v * units[i].f + 0.5);
        if (!(b >= 0 && b < 1.8e19))
            return -1;
        *bytes = (uint64_t)b;
        return 0;
    }
    return -1;
}

int vis_parse_percent(const char *s, double *pct)
{
    /* ms_print's syntax for --threshold: digits and dots, then an optional
     * '%'; strtod must take exactly the digits and dots. */
    char *end;
    size_t n = strspn(s, "0123456789.");
    double v = strtod(s, &end);
    if (n == 0 || end != s + n || (s[n] && strcmp(s + n, "%")) || v < 0)
        return -1;
    *pct = v;
    return 0;
}
