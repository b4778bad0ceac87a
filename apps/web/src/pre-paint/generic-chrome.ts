/**
 * The generic layout's rules both pictures of a page without the default layout's rail share (the
 * tracking card and `/genericTracking`): the picture's root, the bar (MUI's dense AppBar: brand,
 * language button), the page's box (padding 12 px, 24 from 600 px, 1200 px wide at most), the
 * breadcrumbs and the PageHeader's title — measured on the rendered page at 390 and 1280 px,
 * under `#pre-paint` only. Each picture adds its own rules after these.
 */
export const GENERIC_CHROME_CSS = `#pre-paint{position:fixed;inset:0;z-index:1400;overflow:hidden;background:#f6f8fa;color:rgba(0,0,0,.87);font:400 16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased;pointer-events:none}
#pre-paint *{box-sizing:border-box}
#pre-paint header{display:flex;align-items:center;gap:8px;min-height:48px;padding:0 16px;background:#39aade;color:#0a1f2b}
#pre-paint header>span{flex-grow:1;display:flex;align-items:center;gap:8px;font-weight:700}
#pre-paint header img{width:24px;height:24px;background:#fff;border-radius:50%}
#pre-paint header b{display:flex;align-items:center;justify-content:center;min-width:64px;padding:6px 8px;font-size:14px;line-height:24.5px;font-weight:600}
#pre-paint svg{width:20px;height:20px;margin:0 8px 0 -4px;fill:currentColor}
#pre-paint main{display:block;padding:12px;max-width:1200px;margin:0 auto}
#pre-paint ol{display:flex;list-style:none;margin:0;padding:0;font-size:14px;line-height:21px;color:rgba(0,0,0,.6)}
#pre-paint ol i{font-style:normal;margin:0 8px}
#pre-paint h1{margin:0 0 16px;font-size:24px;line-height:1.235;font-weight:600}
`;
