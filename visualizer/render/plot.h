/* plot.h: where a value lands in a chart's plot area, for every PNG chart
 * (the timeline, the diff chart): one rounding rule, so that two charts
 * never place the same moment a pixel apart. The timeline and the gnuplot
 * script take their nice ticks from base/units.h. */
#ifndef VIS_PLOT_H
#define VIS_PLOT_H

#include <math.h>

/* The column of time t on an axis running from t0 at x0 to t1 at x1
 * (t1 > t0), to the nearest pixel. */
static inline int vis_plot_x(int x0, int x1, double t0, double t1, double t)
{
    return x0 + (int)lround((t - t0) * (x1 - x0) / (t1 - t0));
}

/* The row of value v on an axis running from 0 at y1 (the bottom) to max
 * at y0, to the nearest pixel. */
static inline int vis_plot_y(int y0, int y1, double max, double v)
{
    return y1 - (int)lround(v * (y1 - y0) / max);
}

#endif
