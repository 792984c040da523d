/**
 * The site's style sheet: GitBook's look in plain CSS. Light and dark themes follow the system
 * setting (`prefers-color-scheme`); below 900px the sidebar folds into a menu and the outline
 * goes, so a page reads on a phone.
 */
export const STYLES = `
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#346ddb;--info:#346ddb;--success:#1f883d;--warning:#bf8700;--danger:#cf222e;--code:#f6f8fa;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#151b23;--accent:#4493f8;--info:#4493f8;--success:#3fb950;--warning:#d29922;--danger:#f85149;--code:#151b23}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}
.ds-header{position:sticky;top:0;z-index:5;display:flex;gap:1rem;align-items:center;padding:.6rem 1.2rem;border-bottom:1px solid var(--line);background:var(--bg)}
.ds-site-title{font-weight:600;color:var(--fg);text-decoration:none}
.ds-search{margin-left:auto;position:relative}
.ds-search input{width:16rem;max-width:50vw;padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg)}
.ds-search-results{position:absolute;right:0;top:2.4rem;width:24rem;max-width:90vw;margin:0;padding:.3rem;list-style:none;background:var(--bg);border:1px solid var(--line);border-radius:8px;box-shadow:0 8px 24px #0003}
.ds-search-results:empty{display:none}
.ds-search-results a{display:block;padding:.4rem .6rem;border-radius:6px;text-decoration:none;color:var(--fg)}
.ds-search-results a:hover,.ds-search-results a:focus{background:var(--soft)}
.ds-search-results small{display:block;color:var(--muted)}
.ds-layout{display:grid;grid-template-columns:17rem minmax(0,1fr) 14rem;max-width:90rem;margin:0 auto}
.ds-sidebar{position:sticky;top:3.2rem;align-self:start;max-height:calc(100vh - 3.2rem);overflow:auto;padding:1rem;border-right:1px solid var(--line)}
.ds-nav ul{list-style:none;margin:0;padding-left:.9rem}
.ds-nav .ds-nav-top{padding-left:0}
.ds-nav-link{display:block;padding:.2rem .5rem;border-radius:6px;color:var(--fg);text-decoration:none;font-size:.92rem}
.ds-nav-link:hover{background:var(--soft)}
.ds-nav-current{background:var(--soft);color:var(--accent);font-weight:600}
.ds-nav-has-children::after{content:" ›";color:var(--muted)}
.ds-nav-external::after{content:" ↗";color:var(--muted)}
.ds-nav-group-title{display:block;margin:1rem 0 .2rem .5rem;font-size:.75rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.ds-main{padding:1.5rem 2.5rem 4rem;min-width:0}
.ds-main.ds-wide{max-width:none}
.ds-content{max-width:46rem}
.ds-wide .ds-content{max-width:none}
.ds-cover{width:100%;max-height:16rem;object-fit:cover;border-radius:10px;margin-bottom:1rem}
.ds-title{font-size:2.2rem;line-height:1.2;margin:.2rem 0 .4rem}
.ds-description{font-size:1.15rem;color:var(--muted);margin:0 0 1.5rem}
.ds-outline{position:sticky;top:3.2rem;align-self:start;padding:1.5rem 1rem;font-size:.85rem}
.ds-outline ul{list-style:none;margin:0;padding:0}
.ds-outline a{display:block;padding:.15rem 0;color:var(--muted);text-decoration:none}
.ds-outline .ds-depth-3{padding-left:.8rem}
.ds-pagination{display:flex;gap:1rem;justify-content:space-between;margin-top:3rem}
.ds-pagination a{flex:1;padding:.8rem 1rem;border:1px solid var(--line);border-radius:8px;text-decoration:none;color:var(--fg)}
.ds-pagination .ds-next{text-align:right}
.ds-pagination small{display:block;color:var(--muted)}
.ds-menu{display:none}
h1,h2,h3,h4{line-height:1.25;margin:2rem 0 .8rem}
.gb-anchor{margin-left:.4rem;color:var(--muted);text-decoration:none;opacity:0}
h1:hover .gb-anchor,h2:hover .gb-anchor,h3:hover .gb-anchor,h4:hover .gb-anchor{opacity:1}
img{max-width:100%}
table{border-collapse:collapse;display:block;overflow:auto}
th,td{border:1px solid var(--line);padding:.4rem .7rem}
code{font:.88em/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code);padding:.1em .3em;border-radius:4px}
pre{display:flex;background:var(--code);border:1px solid var(--line);border-radius:8px;padding:.9rem 1rem;overflow:auto}
pre code{padding:0;background:none;flex:1}
blockquote{margin:0;padding:0 1rem;border-left:4px solid var(--line);color:var(--muted)}
figure{margin:1.2rem 0}
figcaption{color:var(--muted);font-size:.9rem;text-align:center}
details{border:1px solid var(--line);border-radius:8px;padding:.5rem 1rem;margin:1rem 0}
summary{cursor:pointer;font-weight:600}
.gb-hint{display:flex;gap:.7rem;margin:1rem 0;padding:.8rem 1rem;border-radius:8px;border-left:4px solid var(--c);background:color-mix(in srgb,var(--c) 10%,var(--bg))}
.gb-hint-body>:first-child{margin-top:0}.gb-hint-body>:last-child{margin-bottom:0}
.gb-hint-info{--c:var(--info)}.gb-hint-success{--c:var(--success)}.gb-hint-warning{--c:var(--warning)}.gb-hint-danger{--c:var(--danger)}
.gb-hint-icon{flex:none;width:1.3rem;height:1.3rem;border-radius:50%;background:var(--c);color:var(--bg);font:700 .8rem/1.3rem system-ui;text-align:center}
.gb-hint-info .gb-hint-icon::before{content:"i"}.gb-hint-success .gb-hint-icon::before{content:"✓"}.gb-hint-warning .gb-hint-icon::before{content:"!"}.gb-hint-danger .gb-hint-icon::before{content:"×"}
.gb-tabs{margin:1rem 0;border:1px solid var(--line);border-radius:8px}
.gb-tab-list{display:flex;flex-wrap:wrap;border-bottom:1px solid var(--line);background:var(--soft);border-radius:8px 8px 0 0}
.gb-tab-button{font:inherit;font-size:.9rem;padding:.5rem 1rem;border:0;border-bottom:2px solid transparent;background:none;color:var(--muted);cursor:pointer}
.gb-tab-button[aria-selected=true]{color:var(--accent);border-bottom-color:var(--accent)}
.gb-tab-panel{padding:.2rem 1rem}
.gb-code{margin:1rem 0}
.gb-code-title{text-align:left;font:.85rem ui-monospace,monospace;color:var(--muted);padding:.3rem .2rem}
.gb-code-wrap code{white-space:pre-wrap;word-break:break-word}
.gb-line-numbers{white-space:pre;color:var(--muted);text-align:right;padding-right:1rem;margin-right:1rem;border-right:1px solid var(--line);font:.88em/1.5 ui-monospace,monospace;user-select:none}
.gb-card{position:relative;display:flex;flex-direction:column;gap:.2rem;padding:.8rem 1rem;margin:1rem 0;border:1px solid var(--line);border-radius:8px;color:var(--fg);text-decoration:none}
a.gb-card:hover{border-color:var(--accent)}
.gb-card-title{font-weight:600}
.gb-card-url{color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.gb-file-card .gb-card-title::before{content:"⬇ ";color:var(--accent)}
.gb-content-ref .gb-card-title::before{content:"📄 "}
.gb-caption{color:var(--muted);font-size:.9rem}
.gb-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:1rem;margin:1rem 0}
.gb-cards-large{grid-template-columns:repeat(auto-fill,minmax(20rem,1fr))}
.gb-cards .gb-card{margin:0}
.gb-card-cover{width:calc(100% + 2rem);margin:-.8rem -1rem .5rem;border-radius:8px 8px 0 0;aspect-ratio:16/9;object-fit:cover}
.gb-card-link{position:absolute;inset:0;border-radius:8px}
.gb-card-link:hover{outline:1px solid var(--accent)}
.gb-stepper{list-style:none;padding:0;margin:1rem 0}
.gb-step{display:flex;gap:1rem;padding-bottom:1rem}
.gb-step-number{flex:none;width:1.8rem;height:1.8rem;border-radius:50%;background:var(--soft);border:1px solid var(--line);text-align:center;line-height:1.7rem;font-weight:600}
.gb-step-body{flex:1;min-width:0}.gb-step-body>:first-child{margin-top:0}
.gb-columns{display:flex;gap:1.5rem}.gb-column{flex:1;min-width:0}
.gb-w-25{flex:0 0 25%}.gb-w-30{flex:0 0 30%}.gb-w-35{flex:0 0 35%}.gb-w-40{flex:0 0 40%}.gb-w-50{flex:0 0 50%}.gb-w-60{flex:0 0 60%}.gb-w-65{flex:0 0 65%}.gb-w-70{flex:0 0 70%}.gb-w-75{flex:0 0 75%}
.gb-button{display:inline-block;padding:.4rem 1rem;border-radius:6px;text-decoration:none;font-weight:600}
.gb-button-primary{background:var(--accent);color:#fff}.gb-button-secondary{border:1px solid var(--line);color:var(--fg)}
.gb-icon{display:inline-block;width:.9em;height:.9em;border-radius:3px;background:var(--muted);vertical-align:-.1em}
.gb-color-red{color:var(--danger)}.gb-color-orange{color:#d1570f}.gb-color-yellow{color:var(--warning)}.gb-color-green{color:var(--success)}.gb-color-blue,.gb-color-info,.gb-color-primary{color:var(--info)}.gb-color-purple{color:#8250df}.gb-color-success{color:var(--success)}.gb-color-warning{color:var(--warning)}.gb-color-danger{color:var(--danger)}
mark{background:none;color:inherit}
.gb-bg-red,.gb-bg-danger{background:color-mix(in srgb,var(--danger) 20%,transparent)}.gb-bg-orange{background:#d1570f33}.gb-bg-yellow,.gb-bg-warning{background:color-mix(in srgb,var(--warning) 25%,transparent)}.gb-bg-green,.gb-bg-success{background:color-mix(in srgb,var(--success) 20%,transparent)}.gb-bg-blue,.gb-bg-info,.gb-bg-primary{background:color-mix(in srgb,var(--info) 20%,transparent)}.gb-bg-purple{background:#8250df33}
.gb-diagram{margin:1rem 0;border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:8px;background:var(--soft);overflow:hidden}
.gb-diagram-label{padding:.35rem .9rem;border-bottom:1px solid var(--line);font-size:.8rem;font-weight:600;color:var(--muted)}
.gb-diagram-label::before{content:"◇ ";color:var(--accent)}
.gb-diagram-source{margin:0;padding:.7rem .9rem;background:none;border:0;font-size:.85rem}
.gb-integration{border-style:dashed}
.gb-openapi{border-style:dashed}
.gb-condition{border-left:3px dashed var(--accent);padding-left:.8rem;margin:1rem 0}
.gb-condition-label{font-size:.8rem;color:var(--accent);font-family:ui-monospace,monospace}
.gb-unknown{border:2px dashed var(--warning);border-radius:8px;padding:.5rem 1rem;margin:1rem 0}
.gb-broken-link{color:var(--danger);text-decoration:wavy underline}
.hljs-keyword,.hljs-built_in,.hljs-selector-tag{color:#cf222e}.hljs-string,.hljs-attr,.hljs-regexp{color:#0a3069}.hljs-number,.hljs-literal{color:#0550ae}.hljs-comment{color:#6e7781;font-style:italic}.hljs-title,.hljs-function{color:#8250df}.hljs-type,.hljs-name,.hljs-tag{color:#116329}
@media (prefers-color-scheme:dark){.hljs-keyword,.hljs-built_in,.hljs-selector-tag{color:#ff7b72}.hljs-string,.hljs-attr,.hljs-regexp{color:#a5d6ff}.hljs-number,.hljs-literal{color:#79c0ff}.hljs-comment{color:#8b949e}.hljs-title,.hljs-function{color:#d2a8ff}.hljs-type,.hljs-name,.hljs-tag{color:#7ee787}}
@media (max-width:900px){.ds-layout{display:block}.ds-outline{display:none}.ds-sidebar{display:none;position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}.ds-menu-open .ds-sidebar{display:block}.ds-menu{display:inline-block;font:inherit;background:none;border:1px solid var(--line);border-radius:6px;color:var(--fg);padding:.2rem .6rem}.ds-main{padding:1rem}.gb-columns{flex-direction:column}.ds-search input{width:9rem}}
`;
