/// The HTML format's inline style sheet: no external resources, light and dark schemes.
enum HTMLStyleSheet {
    static let css = """
        :root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --line: #d1d9e0;
          --panel: #f6f8fa; --app: #fff8c5; --error: #d1242f; --warning: #9a6700; --link: #0969da; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d; --panel: #151b23;
            --app: #3a3000; --error: #f85149; --warning: #d29922; --link: #4493f8; }
        }
        body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
          background: var(--bg); margin: 0 auto; max-width: 1120px; padding: 24px; }
        h1 { font-size: 1.5em; margin: 0 0 4px; }
        h2 { font-size: 1.15em; margin: 0 0 8px; line-height: 1.35; }
        a { color: var(--link); }
        code, .stack td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
        .muted, figcaption { color: var(--muted); }
        table { border-collapse: collapse; margin: 8px 0; }
        th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-weight: 600; }
        .num { text-align: right; }
        .finding { border: 1px solid var(--line); border-left: 4px solid var(--error); border-radius: 6px;
          padding: 12px 16px; margin: 20px 0; }
        .finding.warning, .finding.note { border-left-color: var(--warning); }
        .mark.error { color: var(--error); }
        .mark.warning, .mark.note { color: var(--warning); }
        .kind { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0 12px; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; }
        dl.facts ul { margin: 0; padding: 0; list-style: none; }
        figure { margin: 12px 0; padding: 8px; background: var(--panel); border-radius: 6px; }
        svg.timeline { display: block; max-width: 100%; height: auto; }
        details summary { cursor: pointer; font-weight: 600; margin: 8px 0 4px; }
        table.stack { width: 100%; }
        table.stack tr.app { background: var(--app); font-weight: 600; }
        table.stack .marker { width: 1.5em; text-align: center; }
        table.stack .detail { display: block; color: var(--muted); font-weight: normal; }
        section.problems h2 { color: var(--warning); }
        footer { margin-top: 24px; font-size: 12.5px; }
        """
}
