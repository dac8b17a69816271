// The inline style of an exported page (allowed by its hash in the page's CSP).
export const PAGE_STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1e293b;background:#f8fafc}
header{padding:6px 10px;border-bottom:1px solid #cbd5e1;background:#fff}
header small{color:#64748b;margin-left:8px}
main{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.4fr);gap:8px;padding:8px}
section{padding:0 10px}
h2{font-size:15px;margin:8px 0 4px}
h3{font-size:14px;margin:6px 0}
h4{font-size:13px;margin:8px 0 2px}
pre{white-space:pre-wrap;word-break:break-word;font:12px/1.35 ui-monospace,monospace;margin:2px 0;background:#fff;border:1px solid #e2e8f0;padding:4px}
ol,ul{padding-left:0;list-style:none;margin:0}
.chat{margin:4px 0;padding:4px;border-radius:4px;border:1px solid #e2e8f0;background:#fff}
.chat.user{border-color:#93c5fd}
.chat.tool.failed{border-color:#fca5a5}
.chat .writes{margin:4px 0 0;font-size:12px;color:#334155}
.chat.stop,.chat.skill,.chat.error{font-size:12px;color:#475569}
.who{font-size:11px;color:#64748b}
.call{color:#5b21b6}
.md p,.md ul,.md ol,.md table,.md pre{margin:4px 0}
.md ul,.md ol{padding-left:18px}.md ul{list-style:disc}.md ol{list-style:decimal}
.md code{font:12px ui-monospace,monospace;background:#f1f5f9;padding:0 2px}
.md table{border-collapse:collapse}.md th,.md td{border:1px solid #cbd5e1;padding:1px 4px}
.timeline{max-height:260px;overflow:auto;border:1px solid #e2e8f0;background:#fff}
.timeline button,.tabs button,.link{font:inherit;cursor:pointer;border:1px solid #cbd5e1;background:#fff;border-radius:3px;margin:1px;text-align:left}
.timeline button{width:100%}
.timeline small{color:#475569}
.selected,[aria-selected="true"]{background:#dbeafe!important;border-color:#3b82f6!important}
.tabs{margin:6px 0}
.warn{color:#b45309}
.note{font-size:12px;color:#475569;margin:2px 0}
.msg{margin:3px 0;border:1px solid #e2e8f0;padding:2px}
.msg.added{border-color:#34d399;background:#ecfdf5}
.msg-role{font-size:11px;color:#475569}
.diff .add{background:#ecfdf5;border-color:#34d399}
.diff .del{background:#fef2f2;border-color:#fca5a5}
.same{color:#64748b;font-size:12px}
table{border-collapse:collapse;font-size:12px;background:#fff}
td,th{border:1px solid #e2e8f0;padding:2px 4px;text-align:left;vertical-align:top;word-break:break-word}
.warnings{background:#fffbeb}
`;
