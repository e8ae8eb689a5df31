// Draws one Plotly figure (data: its JSON as UTF-8 bytes) with the cartesian plotly.js build served from static/,
// a third of the size of the full bundle st.plotly_chart loads. This module is served from static/ and imported once
// per browser page by the chart component's loader (ui/chart_loader.js, the only code sent with each chart element);
// the build is fetched and run once per browser page, by the first chart that draws, and shared by every chart after
// it; so is plotly.js's translation file for the chart's locale (config.locale). The file names are ui.chart's
// PLOTLY_JS and PLOTLY_LOCALES (tests/test_pages.py holds them equal).
const PLOTLY_FILE = "plotly-cartesian-4.1.1.min.js";
const PLOTLY_LOCALES = { "zh-TW": "plotly-locale-zh-tw-4.1.1.js" }; // language -> its plotly.js translations, in static/

function staticUrl(file) {
  // Next to Streamlit's own static folder, so the app also works under a server.baseUrlPath.
  const own = document.querySelector('script[src*="/static/js/index"]');
  const root = own ? own.src.slice(0, own.src.indexOf("static/js/")) : new URL("./", document.baseURI).href;
  return root + "app/static/" + file;
}

function loadScript(file) {
  // one <script> per file and browser page; a failed one may be tried again by a later chart
  const loading = (window.__tpotScripts = window.__tpotScripts || {});
  if (!loading[file]) {
    loading[file] = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = staticUrl(file);
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        loading[file] = null;
        reject(new Error("could not load " + s.src));
      };
      document.head.appendChild(s);
    });
  }
  return loading[file];
}

function loadPlotly(locale) {
  // the build and the locale's translations fetched side by side (a translation registers itself with plotly.js
  // before or after it loads); a chart whose translations do not load draws with plotly.js's English
  if (!window.__tpotPlotly) {
    window.__tpotPlotly = window.Plotly
      ? Promise.resolve(window.Plotly)
      : loadScript(PLOTLY_FILE).then(
          () => window.Plotly,
          (error) => {
            window.__tpotPlotly = null; // let a later chart try again
            throw error;
          },
        );
  }
  const words = PLOTLY_LOCALES[locale];
  if (!words) return window.__tpotPlotly;
  return Promise.all([window.__tpotPlotly, loadScript(words).catch(() => null)]).then(([Plotly]) => Plotly);
}

// Material "fullscreen" glyph, 24 x 24
const FULLSCREEN_ICON = { width: 24, height: 24, path: "M7 14H5v5h5v-2H7v-3zm-2-4h2V7h3V5H5v5zm12 7h-3v2h5v-5h-2v3zM14 5v2h3v3h2V5h-5z" };

function fullscreenButton(title, div) {
  return {
    name: "fullscreen",
    title,
    icon: FULLSCREEN_ICON,
    click: () => {
      if (document.fullscreenElement) document.exitFullscreen();
      else div.requestFullscreen?.();
    },
  };
}

// Material "image" glyph (PNG) and "draw" glyph (SVG), 24 x 24
const IMAGE_ICONS = {
  png: { width: 24, height: 24, path: "M21 19V5c0-1.1-.9-2-2-2H5c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2zM8.5 13.5l2.5 3.01L14.5 12l4.5 6H5l3.5-4.5z" },
  svg: { width: 24, height: 24, path: "M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z" },
};

const EXPORT_PX = 1200; // a PNG / SVG's width

function atWidth(f, width) {
  // [the figure f as drawn `width` px wide, the ui/figures/common.py for_wider entry it takes there or null]: the
  // widest entry whose min_px the width reaches, each holding whole the trace properties and layout keys it changes
  const e = (f.layout.meta?.tpot_wider || []).filter((x) => width >= x.min_px).pop();
  return e ? [{ data: f.data.map((t, i) => ({ ...t, ...e.traces[i] })), layout: { ...f.layout, ...e.layout } }, e] : [f, null];
}

const boxHeight = (layout) => `${layout.height ?? layout.template?.layout?.height ?? 450}px`;

function drawAt(div) {
  // The chart drawn at its div's width (atWidth; its box as tall: a wider frame's may be shorter), full screen if
  // it is; its title fitted after
  const [f, e] = atWidth(div.tpotFigure, div.clientWidth);
  const screen = document.fullscreenElement === div ? { width: innerWidth, height: innerHeight } : {};
  if (div.data && e?.min_px !== div.tpotWider) Plotly.purge(div); // anew: react keeps no text it once had empty
  div.tpotWider = e?.min_px;
  div.tpotTitle = f.layout.title;
  div.style.minHeight = boxHeight(f.layout);
  return Plotly.react(div, f.data, { ...f.layout, autosize: true, ...screen }, div.tpotConfig).then(() => {
    div.tpotMarginTop = div._fullLayout.margin.t; // the figure's own, before a long title moves the plot down
    fitTitle(div);
  });
}

function exportFigure(div, decor) {
  // The chart as exported (ui/export.py export_decor): the scenario under the title, the source footnote below it;
  // a chart with changes for wider frames as drawn at the export's width
  const [wide, e] = div.tpotFigure ? atWidth(div.tpotFigure, EXPORT_PX) : [];
  const drawn = e ? wide : div;
  const layout = { ...drawn.layout, ...decor.layout, title: { ...(drawn.layout.title || {}), ...decor.layout.title } };
  layout.margin = { ...(drawn.layout.margin || {}), ...decor.layout.margin };
  layout.annotations = [...(drawn.layout.annotations || []), decor.annotation];
  delete layout.width;
  return { data: drawn.data, layout };
}

function imageButton(format, title, div) {
  // A slide-ready image: 1200 px wide at the chart's exported height (PNG at 2x), with its scenario and source (the
  // chart's latest: div.tpotExported)
  return {
    name: `tpot-${format}`,
    title,
    icon: IMAGE_ICONS[format],
    click: () => {
      const exported = div.tpotExported;
      window.Plotly.downloadImage(exportFigure(div, exported.decor), {
        format,
        filename: exported.filename,
        width: EXPORT_PX,
        height: exported.decor.layout.height,
        scale: format === "png" ? 2 : 1,
      });
    },
  };
}

function modeBarButtons(div, labels, exported) {
  // The chart's own buttons, the same objects from one draw to the next while their titles stay: plotly.js compares
  // the config it is given with the last one, and a new button (a new click function) makes Plotly.react draw the
  // whole chart again (2-3x a redraw's time)
  const key = JSON.stringify([labels, Boolean(exported)]);
  if (div.tpotButtonsKey !== key) {
    div.tpotButtonsKey = key;
    div.tpotButtons = [fullscreenButton(labels.fullscreen, div)];
    if (exported) div.tpotButtons.unshift(imageButton("png", labels.png, div), imageButton("svg", labels.svg, div));
  }
  return div.tpotButtons;
}

function onFullscreenChange(event) {
  // full screen: the chart fills the screen, on white; back: its own height, and its column's width again
  const div = event.currentTarget;
  if (!window.Plotly || !div.data) return;
  if (document.fullscreenElement === div) {
    div.tpotHeight = div._fullLayout.height;
    div.style.background = "white";
    window.Plotly.relayout(div, { width: window.innerWidth, height: window.innerHeight });
  } else {
    div.style.background = "";
    window.Plotly.relayout(div, { width: null, height: div.tpotHeight, autosize: true });
  }
}

const MEASURE = document.createElement("canvas").getContext("2d");

function fitTitle(div) {
  // A title wider than its chart (a half-width column, the sidebar open, a wiki frame) on as many lines as it needs
  // from the top of the chart, broken at spaces (not beside a '·' or '×': '批次 ×<br>上下文' had read '批次 ×上下文'),
  // before an opening bracket, after a CJK comma; the plot moved down by
  // the lines added; on one line again when the chart is wide enough (Plotly cuts a long title at the chart's edge).
  // Titles with markup of their own are left as they are.
  const title = div.tpotTitle, full = div._fullLayout, font = full?.title?.font;
  if (!title?.text || title.text.includes("<") || !font) return;
  MEASURE.font = `${font.size}px ${font.family}`;
  const lines = [""];
  for (const part of title.text.split(/(?<=[^·×] )(?![·×])|(?=[（(])|(?<=[：，、])/)) {
    const i = lines.length - 1;
    if (lines[i] && MEASURE.measureText(lines[i] + part).width > div.clientWidth - 16) lines.push(part.trimStart());
    else lines[i] += part;
  }
  const text = lines.map((line) => line.trimEnd()).join("<br>");
  if (full.title.text === text) return;
  const added = lines.length - 1;
  const top = added ? { yref: "container", y: 1, yanchor: "top", pad: { t: 20 } } : {};
  const margin = div.tpotMarginTop + added * Math.ceil(font.size * 1.3);
  window.Plotly.relayout(div, { title: { ...title, ...top, text }, "margin.t": margin });
}

function nearScreen(div) {
  const r = div.getBoundingClientRect();
  return r.bottom > -200 && r.top < window.innerHeight + 200;
}

function whenWanted(div, draw) {
  // A chart on (or near) the screen draws at once, in a task of its own so that it paints before the next one is
  // drawn; the others when the browser is idle or they scroll into view. A drawn chart on the screen redraws at
  // once; one below the fold waits the same way, so that a slider's redraw of the charts in view comes first.
  if (div.data && nearScreen(div)) return draw();
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    seen.disconnect();
    draw();
  };
  const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setTimeout(go, 0), {
    rootMargin: "200px",
  });
  seen.observe(div);
  if (window.requestIdleCallback) window.requestIdleCallback(go, { timeout: 3000 });
  else setTimeout(go, 1000);
}

export default function ({ parentElement, data }) {
  let div = parentElement.querySelector(".tpot-chart");
  if (!div) {
    div = document.createElement("div");
    div.className = "tpot-chart";
    div.style.width = "100%";
    div.addEventListener("fullscreenchange", onFullscreenChange);
    parentElement.appendChild(div);
  }
  if (!div.tpotResize) {
    // follow the column's width (sidebar opened or closed, window resized), not only the window's
    div.tpotResize = new ResizeObserver(() => {
      if (!window.Plotly || !div.data) return;
      if (atWidth(div.tpotFigure, div.clientWidth)[1]?.min_px !== div.tpotWider) return drawAt(div); // its labels
      window.Plotly.Plots.resize(div);
      fitTitle(div);
    });
    div.tpotResize.observe(div);
  }
  const { figure, config, labels, export: exported } = JSON.parse(new TextDecoder().decode(data));
  div.style.minHeight = boxHeight(atWidth(figure, div.clientWidth)[0].layout); // the box, before drawing
  div.tpotExported = exported;
  const buttons = modeBarButtons(div, labels, exported);
  // plotly's own PNG button gives the chart without its scenario: ours replace it
  const remove = exported ? ["toImage"] : [];
  div.tpotNext = { figure, config: { ...config, modeBarButtonsToAdd: buttons, modeBarButtonsToRemove: remove } };
  loadPlotly(config.locale)
    .then(() =>
      whenWanted(div, () => {
        const next = div.tpotNext; // the newest data, if a rerun came while this chart waited
        div.tpotNext = null;
        if (!next) return;
        div.tpotFigure = next.figure;
        div.tpotConfig = next.config;
        return drawAt(div);
      }),
    )
    .catch(() => {
      div.textContent = labels.load_error;
    });
  return () => {
    div.tpotResize?.disconnect();
    div.tpotResize = null;
    if (window.Plotly) window.Plotly.purge(div);
  };
}
