extension PreviewPage {
    /// The page's style sheet: a dark page, the video at the top as wide as it fits, the plots in a
    /// grid under it.
    static let style = ##"""
:root { color-scheme: dark; --bg: #111418; --panel: #1b2027; --text: #e6e9ee; --dim: #8d96a3;
        --ok: #4cc38a; --warn: #f2b84b; --bad: #ff6b6b; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
       font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1.5em; padding: 0.6em 1em; }
h1 { margin: 0; font-size: 1.25em; }
h1 span { color: var(--dim); font-weight: normal; }
h2 { font-size: 1em; margin: 0 0 0.3em; color: var(--dim); font-weight: normal; }
.status { margin: 0; font-weight: 600; }
.status[data-level="ok"] { color: var(--ok); }
.status[data-level="info"] { color: var(--text); }
.status[data-level="warn"] { color: var(--warn); }
.status[data-level="error"] { color: var(--bad); }
main { padding: 0 1em 1em; max-width: 1400px; }
.stage { position: relative; background: #000; border-radius: 6px; overflow: hidden;
         aspect-ratio: 16 / 9; max-height: 60vh; display: flex; justify-content: center; }
video { width: 100%; height: 100%; object-fit: contain; display: block; background: #000; }
.overlay { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); margin: 0;
           padding: 0.8em 1.2em; max-width: 80%; background: rgba(0, 0, 0, 0.75); border-radius: 6px;
           font-size: 1.1em; text-align: center; }
.facts { display: flex; align-items: center; gap: 1em; margin: 0.5em 0; color: var(--dim);
         font-variant-numeric: tabular-nums; }
button { background: var(--panel); color: var(--text); border: 1px solid #333b46; border-radius: 4px;
         padding: 0.3em 0.8em; font: inherit; cursor: pointer; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); gap: 0.6em; }
figure { margin: 0; background: var(--panel); border-radius: 6px; padding: 0.4em 0.6em 0.5em; }
figcaption { color: var(--dim); display: flex; justify-content: space-between; }
figcaption b { color: var(--text); font-variant-numeric: tabular-nums; }
canvas { display: block; width: 100%; height: 100px; }
.served { margin-top: 1em; color: var(--dim); }
.served ul { margin: 0; padding-left: 1.2em; }
a { color: #7cb7ff; }

"""##
}
