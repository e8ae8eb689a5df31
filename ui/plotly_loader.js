// The one loader of the cartesian plotly.js build served from static/: fetched and run once per browser page,
// shared by every chart (ui/plotly_chart.js) and started early by the page's preload (ui.show.preload_charts).
const PLOTLY_FILE = "__PLOTLY_FILE__";

function plotlyUrl() {
  // Next to Streamlit's own static folder, so the app also works under a server.baseUrlPath.
  const own = document.querySelector('script[src*="/static/js/index"]');
  const root = own ? own.src.slice(0, own.src.indexOf("static/js/")) : new URL("./", document.baseURI).href;
  return root + "app/static/" + PLOTLY_FILE;
}

function loadPlotly() {
  if (!window.__tpotPlotly) {
    window.__tpotPlotly = window.Plotly
      ? Promise.resolve(window.Plotly)
      : new Promise((resolve, reject) => {
          const s = document.createElement("script");
          s.src = plotlyUrl();
          s.async = true;
          s.onload = () => resolve(window.Plotly);
          s.onerror = () => {
            window.__tpotPlotly = null; // let a later chart try again
            reject(new Error("could not load " + s.src));
          };
          document.head.appendChild(s);
        });
  }
  return window.__tpotPlotly;
}
