#!/usr/bin/env python3
"""tests/cdp-groups.py HTMLFILE: the HTML report's grouping selector driven
in headless Chromium over the DevTools protocol (tests/cdp.py's client), as
a user would: a mouse click on each grouping's radio button in turn. Prints
one JSON object a line for t627 to compare with its answers:

  {"step": "initial" | "click", "by": the page's grouping, "checked": the
   radio button checked, "legend": [legend band full names (their tooltips;
   the text is the short name)], "bands": [the
   chart's band titles], "top": [[full name (tooltip), name, bytes], ...]
   (the selected snapshot's table), "snapshot": the selected snapshot's
   title, "wrappers": [[short name, full name (tooltip)], ...] (the
   summary's allocation wrappers), "reloads": navigations seen so far (0: no
   reload)}

and at the end {"errors": n} (exceptions and console messages seen).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import errors, page  # noqa: E402

STATE = r"""(function(){
  function txt(e){return e?e.textContent:null;}
  var chk=document.querySelector('input[name=group-by]:checked');
  var top=[].map.call(document.querySelectorAll('#top-sites tbody tr'),function(r){
    var c=r.children; return [c[0].getAttribute('title'), c[0].textContent,
      +c[1].textContent.replace(/[^0-9]/g,'')];});
  return JSON.stringify({by: document.getElementById('app').getAttribute('data-group-by'),
    checked: chk ? chk.value : null,
    radios: [].map.call(document.querySelectorAll('input[name=group-by]'),function(i){return i.value;}),
    legend: [].map.call(document.querySelectorAll('ul.legend .band-name'),function(e){return e.getAttribute('title')||txt(e);}),
    bands: [].map.call(document.querySelectorAll('svg.timeline path.band > title'),txt),
    top: top, snapshot: txt(document.getElementById('snapshot-title')),
    wrappers: [].concat.apply([], [].map.call(document.querySelectorAll('dl.facts dt'),function(t){
      return txt(t)==='Allocation wrappers' ? [].map.call(t.nextElementSibling.querySelectorAll('span'),
        function(s){return [txt(s), s.getAttribute('title')];}) : [];})),
    marker: window.__t627 || null});
})()"""


def main():
    with page(sys.argv[1]) as ws:
        # A marker a reload would lose: every state after a click must still see it.
        ws.js("window.__t627 = 'same page'")
        st = json.loads(ws.js(STATE))
        st["step"] = "initial"
        print(json.dumps(st))
        for by in st["radios"]:
            ws.js("document.getElementById('group-by-%s').scrollIntoView({block: 'center'})" % by)
            box = ws.js("(function(){var r=document.getElementById('group-by-%s').getBoundingClientRect();"
                        "return [r.left + r.width / 2, r.top + r.height / 2];})()" % by)
            ws.call("Input.dispatchMouseEvent", type="mouseMoved", x=box[0], y=box[1])
            ws.call("Input.dispatchMouseEvent", type="mousePressed", x=box[0], y=box[1], button="left", clickCount=1)
            ws.call("Input.dispatchMouseEvent", type="mouseReleased", x=box[0], y=box[1], button="left", clickCount=1)
            st = json.loads(ws.js(STATE))
            st["step"] = "click"
            st["clicked"] = by
            print(json.dumps(st))
        print(json.dumps({"errors": errors(ws)}))


if __name__ == "__main__":
    main()
