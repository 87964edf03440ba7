"""The site's one style sheet and one script (written to assets/). The script only enhances:
every page is complete without it; with it, filters and the search keep their state in the URL."""

CSS = """
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--link:#0550ae;--head:#eef1f4}
*{box-sizing:border-box}
[hidden]{display:none!important}
img{max-width:100%;height:auto}
input,select{max-width:100%}main li,main p,main dd{overflow-wrap:anywhere}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:#fff}
a{color:var(--link)}a:focus-visible,summary:focus-visible,.scroll:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #bf8700;outline-offset:1px}
.skip{position:absolute;left:-9999px}.skip:focus{left:8px;top:8px;z-index:9;background:#fff;padding:4px 8px}
header.site{background:#1f2328;color:#fff;padding:6px 16px;display:flex;flex-wrap:wrap;gap:4px 18px;align-items:center}
header.site a{color:#fff}header.site .brand{font-weight:700;text-decoration:none}
header.site ul{display:flex;flex-wrap:wrap;gap:2px 14px;list-style:none;margin:0;padding:0}
header.site a[aria-current]{text-decoration-thickness:3px}
header.site form{margin-left:auto;display:flex;gap:4px}
header.site input{width:12em;padding:2px 6px;border:1px solid #8c959f;border-radius:4px}
header.site button{padding:2px 8px;border-radius:4px;border:1px solid #8c959f;background:#f6f8fa;color:#1f2328}
main{max-width:1320px;margin:0 auto;padding:6px 16px 40px}
footer{max-width:1320px;margin:0 auto;padding:8px 16px 24px;color:var(--muted);font-size:13px;border-top:1px solid var(--line)}
h1{font-size:24px;margin:10px 0 4px}h2{font-size:19px;margin:26px 0 6px;border-bottom:1px solid var(--line);padding-bottom:3px}
h3{font-size:16px;margin:18px 0 4px}
.lead{margin:2px 0 8px}.muted,.scope{color:var(--muted)}.scope,.small{font-size:13px}
.scroll{overflow:auto;max-height:78vh;max-width:100%;border:1px solid var(--line);margin:6px 0 10px}
table{border-collapse:separate;border-spacing:0;font-size:14px}
th,td{border-right:1px solid var(--line);border-bottom:1px solid var(--line);padding:3px 8px;vertical-align:top;text-align:left;background:#fff}
thead th{position:sticky;top:0;z-index:2;background:var(--head);font-weight:600}
tbody th{position:sticky;left:0;z-index:1;background:#fff;font-weight:600;white-space:nowrap}
thead th:first-child{left:0;z-index:3}
td.num,th.num{text-align:right;white-space:nowrap}
.scroll.whole{max-height:none}table.front td,table.front th{white-space:nowrap;padding:2px 8px}table.front tbody th{font-weight:400}table.front tbody th a{font-weight:600}
td.description{min-width:22em;max-width:34em}td.statement{min-width:20em;max-width:36em}
table.features tbody th{min-width:11em}
.toc{display:flex;flex-wrap:wrap;gap:2px 14px;list-style:none;padding:0;margin:6px 0}
.js-only{display:none}html.js .js-only{display:inline}
tr:target>*,td:target{box-shadow:inset 0 0 0 3px #bf8700}
.o-wrong-data,.o-errored{background:#ffd7d5;color:#82071e;font-weight:600}
.o-failed{background:#ffebe9;color:#82071e}
.o-known-failure{background:#fff1c2;color:#4d2d00}
.o-type-changed{background:#ddf4ff;color:#0a3069}
.o-lenient{background:#fbefff;color:#512a97}
.o-declined,.o-unsupported,.o-none{background:#f6f8fa;color:var(--muted)}
.o-passed{background:#dafbe1;color:#0f5323}
.o-partial{background:#fff8c5;color:#4d2d00}
td[class^=o-] a,td[class*=" o-"] a{color:inherit}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:13px;white-space:nowrap}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;border:1px solid var(--line);padding:6px 8px;font-size:12.5px;max-height:28em;overflow:auto}
code{font-size:13px;background:#f6f8fa;padding:0 3px;border-radius:3px}
blockquote{margin:6px 0;padding:2px 12px;border-left:4px solid var(--line)}
details{margin:4px 0}summary{cursor:pointer}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
.filter{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:end;margin:6px 0}
.filter label{display:flex;flex-direction:column;font-size:13px;color:var(--muted)}
.filter input,.filter select{font:inherit;padding:2px 6px}
.bug{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:10px 0}
.bug h3{margin:4px 0}
ul.cases{columns:22em;margin:4px 0}
.combo{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:8px 0}
@media (max-width:600px){tbody th{max-width:45vw;white-space:normal;overflow-wrap:break-word}td.description,td.statement{min-width:14em}body{font-size:14px}main{padding:4px 8px 30px}header.site form{margin-left:0}h1{font-size:20px}}
"""

JS = r"""
(function(){
'use strict';
document.documentElement.classList.add('js');
const params = new URLSearchParams(location.search);
function esc(s){return String(s).replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));}
// Every control of a filter or combination form, with its state in the URL: a link reproduces the view.
const forms = [...document.querySelectorAll('form.filter, form.combo')];
const controls = () => forms.flatMap(f => [...f.elements].filter(e => e.name));
function keep(){
  const q = new URLSearchParams();
  controls().forEach(el => {
    if(el.type === 'checkbox'){ if(el.checked) q.append(el.name, el.value); }
    else if(el.value) q.set(el.name, el.value);
  });
  const s = q.toString();
  history.replaceState(null, '', (s ? '?' + s : location.pathname) + location.hash);
}
controls().forEach(el => {
  if(el.type === 'checkbox') el.checked = params.getAll(el.name).includes(el.value);
  else if(params.has(el.name)) el.value = params.get(el.name);
});
// Filters: rows match every word of the text box and every other control's value (a token of the
// row's data-NAME attribute).
function applyFilter(form){
  const table = document.getElementById(form.dataset.for);
  if(!table) return;
  const words = (form.elements.q ? form.elements.q.value : '').trim().toLowerCase().split(/\s+/).filter(Boolean);
  const others = [...form.elements].filter(e => e.name && e.name !== 'q');
  let shown = 0, total = 0;
  table.querySelectorAll('tbody tr').forEach(tr => {
    total++;
    const hay = (tr.dataset.search || tr.textContent).toLowerCase();
    let ok = words.every(w => hay.includes(w));
    for(const el of others){
      const want = el.value.trim().toLowerCase();
      if(ok && want) ok = (tr.dataset[el.name] || '').toLowerCase().split(' ').includes(want);
    }
    tr.hidden = !ok;
    if(ok) shown++;
  });
  const out = form.querySelector('output');
  if(out) out.textContent = shown + ' of ' + total + ' shown';
}
document.querySelectorAll('form.filter').forEach(form => {
  form.hidden = false;
  form.addEventListener('input', () => { applyFilter(form); keep(); });
  form.addEventListener('submit', e => e.preventDefault());
  applyFilter(form);
});
// Feature combinations: who passes the cases that need every ticked feature, and each alone.
const combo = document.getElementById('combo-data');
if(combo){
  const data = JSON.parse(combo.textContent);
  const form = document.getElementById('combo-form'), box = document.getElementById('combo');
  form.hidden = false; box.hidden = false;
  const ticks = () => [...form.elements].filter(e => e.name === 'need');
  function tally(cases, j){
    let p = 0, t = 0;
    cases.forEach(c => { const o = c[3][j]; if(o !== '-' && o !== 'u'){ t++; if(o === 'p') p++; } });
    return [p, t];
  }
  function render(){
    const need = ticks().filter(e => e.checked).map(e => e.value);
    if(!need.length){ box.innerHTML = ''; return; }
    const idx = need.map(n => data.features.indexOf(n));
    const together = data.cases.filter(c => idx.every(i => c[2].includes(i)));
    let h = '<h2 id="combination">Who reads ' + esc(need.join(' + ')) + '</h2><p>' + (together.length ?
      together.length + ' ' + esc(data.kind) + ' case(s) of this format need all of them together.' :
      'No ' + esc(data.kind) + ' case of this format needs all of them together: no implementation is shown to read the combination. Each feature alone:') + '</p>' +
      '<div class="scroll" tabindex="0" role="region" aria-label="combination"><table><thead><tr>' +
      '<th scope="col">implementation</th><th scope="col">all together</th>';
    need.forEach(n => { h += '<th scope="col">' + esc(n) + ' (any case)</th>'; });
    h += '</tr></thead><tbody>';
    data.impls.forEach((name, j) => {
      const [p, t] = tally(together, j);
      h += '<tr><th scope="row"><a href="' + esc(data.links[j]) + '">' + esc(name) + '</a></th>' +
        '<td class="' + (t ? (p === t ? 'o-passed' : p ? 'o-partial' : 'o-failed') : 'o-none') + ' num">' +
        (t ? (p === t ? '✓ ' : p ? '◐ ' : '✗ ') + p + '/' + t : 'not tried') + '</td>';
      idx.forEach(i => {
        const [a, b] = tally(data.cases.filter(c => c[2].includes(i)), j);
        h += '<td class="' + (b ? (a === b ? 'o-passed' : a ? 'o-partial' : 'o-failed') : 'o-none') + ' num">' + (b ? a + '/' + b : '–') + '</td>';
      });
      h += '</tr>';
    });
    box.innerHTML = h + '</tbody></table></div><p class="small">Counted: ' + esc(data.kind) +
      ' cases that ran; unsupported and declined ones are not counted (it does not claim them).</p>';
  }
  ticks().forEach(el => el.addEventListener('change', () => { render(); keep(); }));
  render();
}
// Search over every implementation, case, requirement and feature (assets/search-index.js).
const results = document.getElementById('search-results');
if(results && window.SEARCH_INDEX){
  const input = document.getElementById('search-q');
  input.value = params.get('q') || '';
  function run(){
    const text = input.value.trim(), words = text.toLowerCase().split(/\s+/).filter(Boolean);
    history.replaceState(null, '', words.length ? '?q=' + encodeURIComponent(text) : location.pathname);
    if(!words.length){ results.innerHTML = ''; return; }
    const hits = window.SEARCH_INDEX.filter(e => { const h = (e[0] + ' ' + e[3]).toLowerCase(); return words.every(w => h.includes(w)); });
    results.innerHTML = '<p>' + hits.length + ' found' + (hits.length > 300 ? ', the first 300 shown' : '') + '</p><ul>' +
      hits.slice(0, 300).map(e => '<li>' + esc(e[2]) + ' <a href="' + esc(e[1]) + '">' + esc(e[0]) + '</a> <span class="muted">' + esc(e[3].slice(0, 160)) + '</span></li>').join('') + '</ul>';
  }
  input.addEventListener('input', run);
  input.form.addEventListener('submit', e => { e.preventDefault(); run(); });
  run();
}
})();
"""
