"""Opens the HTML page in headless Chromium: every buffer is drawn, hovering
shows its details, the picker switches functions.

The page is loaded unchanged except for one appended <script> (the probe
below) that hovers every buffer of every function with synthetic mouse events
and writes what it saw into the DOM, which `chromium --dump-dom` prints.
"""

import json
import re
import shutil
import subprocess

import pytest

from mplan import report, viz

from test_viz import REPORT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

PROBE = """
<script>
window.addEventListener("load", function () {
  var out = {functions: []};
  var select = document.getElementById("function");
  for (var f = 0; f < select.options.length; f++) {
    select.value = String(f);
    select.dispatchEvent(new Event("change"));
    var active = document.querySelectorAll(".panel.active");
    var panel = active[0];
    var rects = panel.querySelectorAll(".buf rect");
    var info = {name: panel.getAttribute("data-function"), active: active.length,
                drawn: 0, hovers: [], hidden_after_out: true};
    for (var i = 0; i < rects.length; i++) {
      var r = rects[i].getBoundingClientRect();
      if (r.width > 0 && r.height > 0) info.drawn++;
      rects[i].dispatchEvent(new MouseEvent("mouseover", {bubbles: true, clientX: r.x + 1, clientY: r.y + 1}));
      rects[i].dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: r.x + 1, clientY: r.y + 1}));
      var tip = document.getElementById("tooltip");
      info.hovers.push({id: rects[i].parentNode.getAttribute("data-id"),
                        visible: getComputedStyle(tip).display !== "none",
                        text: tip.textContent});
      rects[i].dispatchEvent(new MouseEvent("mouseout", {bubbles: true}));
      if (getComputedStyle(tip).display !== "none") info.hidden_after_out = false;
    }
    info.summary = document.getElementById("summary").textContent;
    out.functions.push(info);
  }
  var pre = document.createElement("pre");
  pre.id = "probe-result";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def run_probe(tmp_path, page):
    path = tmp_path / "plan.html"
    path.write_text(page.replace("</body>", PROBE + "</body>"))
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--user-data-dir=" + str(tmp_path / "profile"),
         "--window-size=1200,900", "--virtual-time-budget=5000", "--dump-dom", path.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    match = re.search(r'<pre id="probe-result">(.*?)</pre>', proc.stdout, re.S)
    assert match, "the probe did not run:\n" + proc.stdout[-2000:] + proc.stderr[-2000:]
    import html
    return json.loads(html.unescape(match.group(1)))


@pytest.mark.skipif(CHROMIUM is None,
                    reason="chromium is not installed (Debian package chromium; `make deps`)")
def test_every_buffer_drawn_and_hover_text(tmp_path):
    functions = report.from_report(REPORT)
    result = run_probe(tmp_path, viz.render_html(functions))
    expected = [f for f in REPORT["functions"] if f["buffers"] or f["unmanaged"]]
    assert [f["name"] for f in result["functions"]] == [f["name"] for f in expected]
    for seen, fn in zip(result["functions"], expected):
        assert seen["active"] == 1, seen
        assert seen["drawn"] == len(fn["buffers"]), seen
        assert str(len(fn["buffers"])) + " buffers" in seen["summary"]
        hovers = {h["id"]: h for h in seen["hovers"]}
        assert sorted(hovers, key=int) == sorted(str(b["id"]) for b in fn["buffers"])
        for b in fn["buffers"]:
            h = hovers[str(b["id"])]
            assert h["visible"], h
            text = h["text"]
            assert text.startswith(f"buffer {b['id']}\n"), text
            assert (b["loc"] or "(no location)") in text
            assert f"({b['size']} B)" in text
            assert f"[{b['start']}, {b['end']})" in text
            assert f"offset: {b['offset']} .. {b['offset'] + b['size']}" in text
        assert seen["hidden_after_out"]


@pytest.mark.skipif(CHROMIUM is None,
                    reason="chromium is not installed (Debian package chromium; `make deps`)")
def test_real_model_report_in_chromium(tmp_path, repo, mlir_opt):
    import mplan
    model = repo / "models" / "resnet_block.mlir"
    buf = subprocess.run(
        [str(mlir_opt), str(model), "--one-shot-bufferize=bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map"],
        capture_output=True, text=True, check=True).stdout
    planned = mplan.plan_module(buf, source_name=str(model))
    functions = report.from_report(planned.report)
    total = sum(len(f.buffers) for f in functions if f.buffers or f.unmanaged)
    assert total > 0
    result = run_probe(tmp_path, viz.render_html(functions))
    assert sum(f["drawn"] for f in result["functions"]) == total
    assert all(h["visible"] and h["text"].startswith("buffer ")
               for f in result["functions"] for h in f["hovers"])


@pytest.mark.skipif(CHROMIUM is None,
                    reason="chromium is not installed (Debian package chromium; `make deps`)")
def test_invalid_plan_hover_and_summary(tmp_path):
    from test_viz import invalid_report
    result = run_probe(tmp_path, viz.render_html(report.from_report(invalid_report())))
    main, helper = result["functions"]
    assert "INVALID PLAN (5 problems)" in main["summary"]
    assert "INVALID" not in helper["summary"]
    texts = {h["id"]: h["text"] for h in main["hovers"]}
    assert "INVALID: buffers 0 and 1 are live at the same time" in texts["0"]
    assert "INVALID: buffer 8: end (5) must be greater than start (6)" in texts["8"]
    assert all("INVALID" not in h["text"] for h in helper["hovers"])
