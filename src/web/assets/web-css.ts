/** The website's one stylesheet (served as /assets/web-<hash>.css; no inline styles anywhere). */
export const WEB_CSS = `
:root{--fg:#1b1f24;--muted:#4a5360;--bg:#fff;--soft:#f3f5f8;--line:#c9d0d9;--accent:#0b57d0;--accent-fg:#fff;--bad:#a4161a;--good:#1a6b2f;--mark:#fff1a8}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0}
a{color:var(--accent)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:var(--fg);color:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:0}
header.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--soft)}
header.site .brand{font-weight:700;font-size:1.15rem;color:var(--fg);text-decoration:none}
header.site nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
header.site nav a[aria-current=page]{font-weight:700}
header.site .who{margin-left:auto;display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
header.site .signout button{padding:.3rem .75rem}
main{max-width:72rem;margin:0 auto;padding:1rem}
footer.site{max-width:72rem;margin:2rem auto 1rem;padding:0 1rem;color:var(--muted);font-size:.9rem}
h1{font-size:1.75rem;margin:.5rem 0 1rem}
h2{font-size:1.3rem;margin:1.75rem 0 .75rem}
h3{font-size:1.1rem;margin:1.25rem 0 .5rem}
.subnav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:0 0 1rem;border-bottom:1px solid var(--line);padding-bottom:.5rem}
.subnav a[aria-current=page]{font-weight:700}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem;padding:0;margin:0;list-style:none}
.card{border:1px solid var(--line);border-radius:.5rem;padding:1rem;background:var(--bg)}
.card .value{font-size:2rem;font-weight:700;display:block}
.card .label{color:var(--muted)}
.card .ci{display:block;color:var(--muted);font-size:.9rem;font-variant-numeric:tabular-nums}
.grade{font-size:2.5rem}
.table-wrap{overflow-x:auto;margin:.5rem 0 1rem;position:relative}
table{border-collapse:collapse;width:100%;font-size:.95rem}
caption{text-align:left;font-weight:600;padding:.25rem 0;color:var(--muted)}
th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top}
th{background:var(--soft)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.up{color:var(--good)}.down{color:var(--bad)}
form.stack{display:grid;gap:.9rem;max-width:32rem}
form.inline{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:0 0 1rem}
form.inline .field{display:grid;gap:.2rem}
label{font-weight:600}
.hint{color:var(--muted);font-size:.9rem;font-weight:400}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],select{font:inherit;padding:.45rem .55rem;border:1px solid #6b7480;border-radius:.3rem;min-width:0;width:100%;max-width:32rem;background:#fff;color:var(--fg)}
input[type=checkbox]{width:1.1rem;height:1.1rem}
button,.button{font:inherit;font-weight:600;display:inline-block;padding:.5rem 1rem;border-radius:.3rem;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
.error-summary{border:3px solid var(--bad);padding:.75rem 1rem;margin:0 0 1rem;border-radius:.3rem}
.error-summary h2{margin:0 0 .25rem;font-size:1.1rem;color:var(--bad)}
.notice{border-left:5px solid var(--accent);background:var(--soft);padding:.75rem 1rem;margin:0 0 1rem}
.secret{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:1rem;padding:.5rem;background:var(--soft);border:1px solid var(--line);word-break:break-all;display:block;margin:.5rem 0}
mark{background:var(--mark);color:var(--fg);font-weight:600}
mark.own{background:#d3e3fd;font-weight:800;box-shadow:inset 0 -2px 0 var(--accent)}
mark.own .you{font-weight:600;font-size:.85em}
.excluded{text-decoration:underline dotted;color:var(--muted)}
.answer{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.answer p.text{white-space:pre-wrap}
.meta{color:var(--muted);font-size:.9rem}
.pager{display:flex;gap:1rem;margin:1rem 0}
.chart{max-width:100%;height:auto;border:1px solid var(--line);border-radius:.5rem;background:#fff}
.chart .axis{stroke:#6b7480}
.chart .grid{stroke:#dde2e8}
.chart .line{fill:none;stroke:var(--accent);stroke-width:3}
.chart .dot{fill:var(--accent)}
.chart text{font-size:12px;fill:#333a44}
.chart-scroll{overflow-x:auto;margin:.5rem 0 1rem}
.chart-scroll .chart{max-width:none;display:block}
.answer .failure{color:var(--bad)}
.field-error{color:var(--bad);font-weight:600;font-size:.9rem;max-width:20rem}
.dropzone{border:2px dashed #6b7480;border-radius:.5rem;padding:1.25rem;display:grid;gap:.5rem}
.dropzone.over{border-color:var(--accent);background:var(--soft)}
progress{width:100%;max-width:32rem;height:1.25rem}
.bad{color:var(--bad);font-weight:600}
#upload-form{margin-bottom:1.5rem}
#upload-status{margin:0}
#run-form h2{margin-top:0}
#chosen{margin:.25rem 0;padding-left:1.25rem}
#chosen li{overflow-wrap:anywhere}
#chosen .password{margin:.4rem 0 .75rem}
#chosen .order button{padding:.1rem .5rem;margin:.15rem 0;font-size:.9rem}
#run-form button:disabled{opacity:.6;cursor:not-allowed}
input[type=color]{width:3.5rem;height:2.25rem;padding:.1rem;vertical-align:middle}
.tools{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem;list-style:none;padding:0}
.visually-hidden{position:absolute!important;top:0;left:0;width:1px!important;height:1px!important;min-width:0!important;padding:0!important;margin:-1px!important;border:0!important;overflow:hidden!important;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
dl.pairs{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem}
dl.pairs dt{font-weight:600}dl.pairs dd{margin:0;overflow-wrap:anywhere}
.card>:first-child,.notice>:first-child,.answer>:first-child{margin-top:0}
.card>:last-child,.notice>:last-child{margin-bottom:0}
.check input[type=checkbox]{vertical-align:-.15rem;margin:0 .4rem 0 0}
.score{display:inline-block;min-width:4.5rem;padding:.25rem .75rem;border-radius:.25rem;color:#fff;font-size:2rem;font-weight:700;text-align:center}
.score.good{background:#0b6b2e}.score.average{background:#8a4b00}.score.poor{background:#b3261e}
.rule{border-left:4px solid #767676;padding-left:1rem;margin:1.5rem 0}
.note{background:#fff4ce;border:1px solid #8a6d00;padding:.75rem}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f3f3;padding:.5rem;margin:.25rem 0 .75rem;font-size:.875rem}
img.shot{max-width:100%;height:auto;border:1px solid #767676}
ul.links li{margin:.5rem 0}
@media (max-width:40rem){h1{font-size:1.4rem}.card .value{font-size:1.6rem}header.site .who{margin-left:0}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
table.stack,table.stack caption,table.stack tbody,table.stack tr,table.stack th,table.stack td{display:block}
table.stack tr{border:1px solid var(--line);border-radius:.5rem;margin:0 0 .75rem}
table.stack tbody th{border-radius:.5rem .5rem 0 0}
table.stack td,table.stack td.num{border:0;text-align:left}
table.stack th,table.stack td{overflow-wrap:anywhere}
table.stack td:empty{display:none}
table.stack td::before{content:attr(data-label) ": ";font-weight:600}
table.stack td::before{content:attr(data-label) ": "/""}
table.stack td form.inline{margin:.25rem 0}
}
`;
