/** The app's own additions to the renderer's style sheet: the app bar, lists, diffs, forms. */
export const APP_STYLES = `
.app-bar{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:.4rem 1.2rem;background:var(--soft);border-bottom:1px solid var(--line);font-size:.9rem}
.app-bar a{text-decoration:none}
.app-bar .app-user{margin-left:auto;color:var(--muted)}
.app-bar form{display:inline;margin:0}
.app-bar input[type=search]{padding:.25rem .5rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
button,.app-button{font:inherit;padding:.3rem .8rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);cursor:pointer}
button.app-primary{background:var(--accent);border-color:var(--accent);color:#fff}
.app-main{max-width:64rem;margin:0 auto;padding:1.5rem 1.5rem 4rem}
.app-main h1{font-size:1.8rem;margin:.2rem 0 1rem}
.app-list{list-style:none;padding:0;margin:0 0 1.5rem}
.app-list li{padding:.5rem .2rem;border-bottom:1px solid var(--line)}
.app-list small,.app-muted{color:var(--muted)}
.app-tabs{display:flex;gap:.5rem;margin:0 0 1rem;padding:0;list-style:none}
.app-tabs a{padding:.2rem .6rem;border-radius:6px;text-decoration:none}
.app-tabs a[aria-current]{background:var(--soft);font-weight:600}
.app-status{display:inline-block;padding:0 .5rem;border-radius:1rem;border:1px solid var(--line);font-size:.8rem}
.app-actions{display:flex;gap:.5rem;margin:1rem 0}
.app-actions form{margin:0}
.app-error{max-width:40rem;margin:4rem auto;padding:0 1.5rem}
.app-form label{display:block;margin:.8rem 0 .3rem;font-weight:600}
.app-form input[type=password],.app-form input[type=text]{width:100%;padding:.45rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.app-form button{margin-top:1rem}
.diff-page{margin:1.5rem 0;border:1px solid var(--line);border-radius:8px;overflow:hidden}
.diff-page>h3{margin:0;padding:.5rem .8rem;background:var(--soft);font-size:1rem}
.diff-text{margin:0;padding:.5rem 0;overflow:auto;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace}
.diff-text div{padding:0 .8rem;white-space:pre-wrap}
.diff-add{background:#1f883d26}
.diff-del{background:#cf222e26}
.diff-sides{display:grid;grid-template-columns:1fr 1fr;gap:0;border-top:1px solid var(--line)}
.diff-sides>section{padding:.5rem 1rem;min-width:0;overflow:auto}
.diff-sides>section+section{border-left:1px solid var(--line)}
.diff-sides h4{margin:.2rem 0;color:var(--muted);font-size:.8rem;text-transform:uppercase}
.app-comment{border:1px solid var(--line);border-radius:8px;padding:.5rem .8rem;margin:.6rem 0}
`;
