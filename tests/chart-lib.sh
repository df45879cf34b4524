# tests/chart-lib.sh: what the chart-pixel tests (t300, t596) share, sourced
# after lib.sh, before plan; the script then sets FIX (the profile).
# Positions come from the layout memtime-vis prints with
# MEMTIME_VIS_DEBUG_LAYOUT=1 (plot rectangle and axis ranges) and the
# mapping stated in chart.c.
[ -x "$MT_VIS" ] || plan_skip "memtime-vis not built ($MT_VIS)"
PNGCHECK=$(build_pngcheck) || plan_skip "cannot build tests/pngcheck.c"
MiB=1048576

# render NAME [args]: writes $T/NAME.png, its layout in $T/NAME.layout
render() {
  local name=$1; shift
  MEMTIME_VIS_DEBUG_LAYOUT=1 "$MT_VIS" "$FIX" -o "$T/$name.png" "$@" 2>"$T/$name.layout"
}
# load_plot NAME: sets X0 Y0 X1 Y1 (the plot), T0 T1 (its time range) and
# YMAX (the top of its y axis, bytes) from the layout
load_plot() {
  read -r X0 Y0 X1 Y1 <<<"$(awk '$2=="plot"{print $3,$4,$5,$6}' "$T/$1.layout")"
  read -r T0 T1 <<<"$(awk '$2=="x"{print $3,$4}' "$T/$1.layout")"
  YMAX=$(awk '$2=="y"{print $3}' "$T/$1.layout")
}
# load_panel NAME: sets Y0 Y1 (the RSS panel's rows) and YMAX (its top,
# bytes) from the layout, when the chart has the RSS panel (chart_data.h,
# vis_chart_rss_panel); X0 X1 T0 T1 are the plot's. Fails without a panel.
load_panel() {
  grep -q '^layout panel ' "$T/$1.layout" || return 1
  read -r Y0 Y1 <<<"$(awk '$2=="panel"{print $4,$6}' "$T/$1.layout")"
  YMAX=$(awk '$2=="panely"{print $3}' "$T/$1.layout")
}
# xt MS: column of a time; ym MIB: row of a value (the mapping of chart.c)
round() { awk -v v="$1" 'BEGIN{ printf "%d", (v < 0 ? v - 0.5 : v + 0.5) }'; }
xt() { round "$(awk -v t="$1" -v a="$T0" -v b="$T1" -v x0="$X0" -v x1="$X1" 'BEGIN{print x0 + (t-a)*(x1-x0)/(b-a)}')"; }
ym() { awk -v v="$1" -v m=$MiB -v y0="$Y0" -v y1="$Y1" -v ymax="$YMAX" \
         'BEGIN{ d = v*m*(y1-y0)/ymax; printf "%d", y1 - int(d + 0.5) }'; }
# at NAME X Y: the colour RRGGBB of a pixel of $T/NAME.png
at() { "$PNGCHECK" "$T/$1.png" at "$2" "$3"; }
