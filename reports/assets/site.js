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
