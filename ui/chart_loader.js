// The chart component's code, sent with every chart element: it imports the chart module (static/plotly_chart.js,
// ?v= its content's hash, so a changed module is fetched anew) once per browser page and hands each chart to it; a
// failed import is tried again by the next chart (a browser keeps a failed module, so with a query of its own).
const own = document.querySelector('script[src*="/static/js/index"]'); // under a server.baseUrlPath too
const root = own ? own.src.slice(0, own.src.indexOf("static/js/")) : new URL("./", document.baseURI).href;
const url = root + "app/static/plotly_chart.js?v=__VERSION__";

function chartModule() {
  if (!window.__tpotChart) {
    const tries = (window.__tpotChartTries = (window.__tpotChartTries || 0) + 1);
    window.__tpotChart = import(tries > 1 ? url + "&r=" + tries : url).catch((e) => {
      window.__tpotChart = null;
      throw e;
    });
  }
  return window.__tpotChart;
}

export default function (args) {
  const parent = args.parentElement;
  let cleanup = null;
  let gone = false;
  chartModule()
    .then((m) => {
      if (gone) return;
      parent.querySelector(".tpot-chart-error")?.remove(); // an earlier try's
      cleanup = m.default(args);
    })
    .catch(() => {
      if (gone) return;
      const note = parent.querySelector(".tpot-chart-error") || parent.appendChild(document.createElement("div"));
      note.className = "tpot-chart-error";
      note.textContent = JSON.parse(new TextDecoder().decode(args.data)).labels.load_error;
    });
  return () => {
    gone = true;
    if (cleanup) cleanup();
  };
}
