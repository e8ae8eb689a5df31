// The chart component's code, sent with every chart element: it imports the chart module (static/plotly_chart.js,
// ?v= its content's hash, so a changed module is fetched anew) once per browser page and hands each chart to it.
const own = document.querySelector('script[src*="/static/js/index"]'); // under a server.baseUrlPath too
const root = own ? own.src.slice(0, own.src.indexOf("static/js/")) : new URL("./", document.baseURI).href;
const chart = import(root + "app/static/plotly_chart.js?v=__VERSION__");

export default function (args) {
  let cleanup = null;
  let gone = false;
  chart
    .then((m) => {
      if (!gone) cleanup = m.default(args);
    })
    .catch(() => {
      args.parentElement.textContent = JSON.parse(new TextDecoder().decode(args.data)).labels.load_error;
    });
  return () => {
    gone = true;
    if (cleanup) cleanup();
  };
}
