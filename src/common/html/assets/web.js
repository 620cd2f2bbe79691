// Runs `run` now and again after the page's content changes (a list filled by another part of this
// script, a result shown), at most once per turn of the event loop however many nodes changed.
function onPageChange(run) {
  'use strict';
  var queued = false;
  new window.MutationObserver(function () {
    if (queued) return;
    queued = true;
    setTimeout(function () { queued = false; run(); }, 0);
  }).observe(document.body, { childList: true, subtree: true });
  run();
}

(function () {
  'use strict';
  function say(el, text) { if (el) el.textContent = text; }

  // Copy buttons: <button data-copy="id-of-element" data-status="id-of-live-region">
  document.querySelectorAll('button[data-copy]').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var src = document.getElementById(b.getAttribute('data-copy'));
      var status = document.getElementById(b.getAttribute('data-status'));
      if (!src || !navigator.clipboard) { say(status, 'Copying is not available: select the key and copy it.'); return; }
      navigator.clipboard.writeText(src.textContent.trim()).then(
        function () { say(status, 'Copied to the clipboard.'); },
        function () { say(status, 'Copying failed: select the key and copy it.'); });
    });
  });

  // A notice carried in the address after a redirect (?notice=queued) is shown once: the address
  // drops it, so a reload, a bookmark or a shared link does not say it again.
  if (history.replaceState && /[?&]notice=/.test(location.search)) {
    var query = new URLSearchParams(location.search);
    query.delete('notice');
    history.replaceState(history.state, '', location.pathname + (query.toString() ? '?' + query.toString() : '') + location.hash);
  }

  // A page answered to a form (a refused form, an upload's result) names its own address
  // (<main data-address>): the address bar shows it instead of the form's, whose query may carry
  // the CSRF token; a reload or a bookmark then opens that page rather than sending the form again.
  var main = document.querySelector('main[data-address]');
  if (history.replaceState && main && main.getAttribute('data-address').charAt(0) === '/') {
    history.replaceState(history.state, '', main.getAttribute('data-address'));
  }

  // PDF tool pages: each chosen or dropped file goes to POST /files (the upload an agent uses)
  // with upload progress; its file_id joins the tool form, which is then sent in place.
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many || one + 's'); }
  function fileSize(n) { return n < 1048576 ? Math.max(1, Math.round(n / 1024)) + ' KB' : Math.round(n / 104857.6) / 10 + ' MB'; }
  // Fields needed by one choice of another (split's ranges, every, count follow its mode): only
  // the one the choice needs is shown and sent. Without the script all are shown, each saying when it is needed.
  function conditional(root) {
    root.querySelectorAll('[data-when]').forEach(function (box) {
      var control = document.getElementById(box.getAttribute('data-when'));
      if (!control) return;
      function update() {
        var on = control.value === box.getAttribute('data-when-value');
        box.hidden = !on;
        box.querySelectorAll('input, select, textarea').forEach(function (el) { el.disabled = !on; });
      }
      control.addEventListener('change', update);
      update();
    });
  }
  // Colour fields: the picker (<input type=color>) gets a field for the colour's code beside it,
  // kept in step both ways. A browser without a picker shows a text field already: nothing to add.
  function colours(root) {
    root.querySelectorAll('[data-colour-code]').forEach(function (box) {
      var picker = document.getElementById(box.getAttribute('data-colour-code'));
      var code = box.querySelector('input');
      if (!picker || !code || picker.type !== 'color') return;
      box.hidden = false;
      code.value = picker.value;
      // A code that is not one (the picker keeps its last colour) holds the run back with the
      // server's own sentence (data-invalid), so the tool never runs on a colour other than the one typed.
      function check() {
        var ok = /^#[0-9a-f]{6}$/i.test(code.value.trim());
        if (ok) picker.value = code.value.trim().toLowerCase();
        code.setCustomValidity(ok ? '' : code.getAttribute('data-invalid') || 'Type a colour code such as #808080.');
        if (ok) code.removeAttribute('aria-invalid'); else code.setAttribute('aria-invalid', 'true');
      }
      picker.addEventListener('input', function () { code.value = picker.value; check(); });
      code.addEventListener('input', check);
    });
  }
  // A job's page (OCR): <div data-poll="ms" data-poll-url="/pdf/ocr/jobs/ID"> while it runs; the
  // page is fetched again after that many ms and its main replaces this one (the address becomes the job's).
  function poll(root) {
    var el = root.querySelector('[data-poll]');
    if (!el) return;
    var url = el.getAttribute('data-poll-url');
    if (url && location.pathname !== url && history.replaceState) history.replaceState(null, '', url);
    setTimeout(function () {
      var xhr = new XMLHttpRequest();
      xhr.open('GET', url || location.href);
      xhr.responseType = 'document';
      xhr.addEventListener('load', function () {
        var next = xhr.response && xhr.response.querySelector('main');
        if (!next) return;
        var main = document.importNode(next, true);
        document.querySelector('main').replaceWith(main);
        if (!main.querySelector('[data-poll]')) { var h = main.querySelector('#result h2, .error-summary'); if (h) { h.setAttribute('tabindex', '-1'); h.focus(); } }
        tools(main);
      });
      xhr.send();
    }, Number(el.getAttribute('data-poll')) || 2000);
  }

  function tools(root) {
    poll(root);
    conditional(root);
    colours(root);
    root.querySelectorAll('form[data-upload]').forEach(function (form) {
      var run = document.getElementById('run-form');
      var list = document.getElementById('chosen');
      var none = document.getElementById('none-chosen');
      var input = form.querySelector('input[type=file]');
      var zone = form.querySelector('.dropzone');
      var bar = form.querySelector('progress');
      var status = document.getElementById('upload-status');
      var order = document.getElementById('chosen-status');
      var button = run && run.querySelector('button[type=submit]');
      var wait = document.getElementById('run-wait');
      var max = Number(form.getAttribute('data-many')) || 1;
      var refusals = {};
      try { refusals = JSON.parse(form.getAttribute('data-refusals') || '{}'); } catch (e) { refusals = {}; }
      // Files chosen and not uploaded yet, in the order chosen: the tool does not run until they are in.
      var waiting = [];
      var uploading = null;
      var running = false;
      var seq = 0;
      if (!run || !list || !input || !window.XMLHttpRequest || !window.FormData) return;
      form.querySelectorAll('[data-nojs]').forEach(function (el) { el.hidden = true; });
      if (max > 1) input.multiple = true;
      function fail(text) { if (bar) bar.hidden = true; status.classList.add('bad'); say(status, text); input.value = ''; }
      function refusal(name, r) {
        var text = (r && (refusals[r.error_detail] || refusals[r.error])) || refusals['default'] || '{name} could not be uploaded. Try again.';
        return text.split('{name}').join(name);
      }
      function names(items) { return items.length < 2 ? items.join('') : items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1]; }
      // The run button is disabled while a file is uploading, and says why.
      function update() {
        if (!button) return;
        var busy = waiting.length > 0;
        button.disabled = busy || running;
        if (wait) {
          wait.hidden = !busy;
          say(wait, busy ? 'Wait: ' + names(waiting.map(function (w) { return w.name; })) + (waiting.length === 1 ? ' is' : ' are') + ' still uploading.' : '');
        }
        if (busy) button.setAttribute('aria-describedby', 'run-wait'); else button.removeAttribute('aria-describedby');
        if (uploading) uploading.hidden = !busy;
      }
      function password(info, n) {
        var box = document.createElement('div');
        box.className = 'password';
        var label = document.createElement('label');
        label.htmlFor = 'password-' + n;
        label.textContent = 'Password of ' + info.filename;
        var field = document.createElement('input');
        field.type = 'password'; field.id = 'password-' + n; field.name = 'password.' + info.file_id;
        field.autocomplete = 'off'; field.maxLength = 1024;
        field.setAttribute('aria-describedby', field.id + '-hint');
        var hint = document.createElement('span');
        hint.className = 'hint'; hint.id = field.id + '-hint';
        hint.textContent = 'Needed to open the file. Used for this run only: it is not kept.';
        box.appendChild(label); box.appendChild(document.createElement('br'));
        box.appendChild(field); box.appendChild(document.createElement('br'));
        box.appendChild(hint);
        return box;
      }
      function items() { return Array.prototype.slice.call(list.children); }
      function nameOf(li) { return li.getAttribute('data-name') || ''; }
      function tell(text) { say(order || status, text); }
      // Merge: each file gets buttons to move it up or down and to remove it (the order of the list is the order merged).
      function controls(li) {
        if (max === 1 || li.querySelector('.order')) return;
        var box = document.createElement('span');
        box.className = 'order';
        [['up', 'Move up'], ['down', 'Move down'], ['remove', 'Remove']].forEach(function (b) {
          var el = document.createElement('button');
          el.type = 'button'; el.className = 'secondary'; el.setAttribute('data-order', b[0]);
          el.textContent = b[1];
          el.setAttribute('aria-label', b[1] + ': ' + nameOf(li));
          el.addEventListener('click', function () { act(li, b[0], el); });
          box.appendChild(document.createTextNode(' '));
          box.appendChild(el);
        });
        var hint = li.querySelector('.hint');
        if (hint && hint.nextSibling) li.insertBefore(box, hint.nextSibling); else li.appendChild(box);
      }
      // The first file cannot move up nor the last down: those buttons are disabled (after every
      // change of the list: a move, a drag, an upload, a removal).
      function ends() {
        var all = items();
        all.forEach(function (li, i) {
          var up = li.querySelector('button[data-order=up]');
          var down = li.querySelector('button[data-order=down]');
          if (up) up.disabled = i === 0;
          if (down) down.disabled = i === all.length - 1;
        });
      }
      function act(li, what, el) {
        var all = items();
        var at = all.indexOf(li);
        if (what === 'remove') {
          var next = all[at + 1] || all[at - 1];
          li.remove();
          var left = items().length;
          if (none) none.hidden = left > 0;
          update();
          tell(nameOf(li) + ' removed. ' + plural(left, 'file') + ' left.');
          var target = next && next.querySelector('button[data-order=remove]');
          (target || input).focus();
          return;
        }
        // The neighbour moves, not the focused item: its button keeps the focus.
        if (what === 'up') {
          if (at === 0) return;
          list.insertBefore(all[at - 1], li.nextSibling);
          at--;
        } else {
          if (at === all.length - 1) return;
          list.insertBefore(all[at + 1], li);
          at++;
        }
        tell(nameOf(li) + ' moved ' + what + ': ' + (at + 1) + ' of ' + all.length + '.');
        ends();
        // Now first (or last), its button is disabled: the focus goes to the other way's, on the same file.
        var keep = el.disabled ? li.querySelector('button[data-order=' + (what === 'up' ? 'down' : 'up') + ']') : el;
        if (keep && keep.disabled) keep = li.querySelector('button[data-order=remove]');
        if (keep && document.activeElement !== keep) keep.focus();
      }
      // Files waiting for their upload are listed apart (their names, "uploading…"); uploads go one at
      // a time, in the order chosen, so each joins the list of chosen files in that order.
      uploading = document.getElementById('uploading');
      if (!uploading) {
        uploading = document.createElement('ul');
        uploading.id = 'uploading';
        uploading.className = 'hint';
        uploading.setAttribute('aria-label', 'Uploading');
        uploading.hidden = true;
        list.parentNode.insertBefore(uploading, list.nextSibling);
      }
      var queue = [];
      var current = null;
      function add(info) {
        if (max === 1) list.textContent = '';
        var li = document.createElement('li');
        li.setAttribute('data-name', info.filename);
        var id = document.createElement('input');
        id.type = 'hidden'; id.name = 'file_id'; id.value = info.file_id;
        var hint = document.createElement('span');
        hint.className = 'hint';
        hint.textContent = '(' + (info.encrypted ? 'password-protected' : plural(info.pages, 'page')) + ', ' + fileSize(info.bytes) + ')';
        li.appendChild(id);
        li.appendChild(document.createTextNode(info.filename + ' '));
        li.appendChild(hint);
        // A file that needs its password to open: a field for it, sent with its file_id (as the server renders it).
        if (info.encrypted) li.appendChild(password(info, ++seq));
        list.appendChild(li);
        controls(li);
        if (none) none.hidden = true;
      }
      function done(item) {
        // The bar is this file's: it goes (emptied) with its upload, so the next one shows its own progress.
        if (bar) { bar.hidden = true; bar.value = 0; }
        waiting = waiting.filter(function (w) { return w !== item; });
        if (item.row.parentNode) item.row.parentNode.removeChild(item.row);
        current = null;
        update();
        next();
      }
      function next() {
        if (current || !queue.length) { if (!current) input.value = ''; return; }
        var item = current = queue.shift();
        var f = item.file;
        var xhr = new XMLHttpRequest();
        xhr.open('POST', form.getAttribute('data-upload'));
        xhr.responseType = 'json';
        status.classList.remove('bad');
        if (bar) { bar.hidden = false; bar.max = 100; bar.value = 0; }
        say(status, 'Uploading ' + f.name + '…');
        xhr.upload.addEventListener('progress', function (ev) {
          if (ev.lengthComputable && bar) { bar.max = ev.total; bar.value = ev.loaded; }
          if (ev.lengthComputable && ev.loaded === ev.total) say(status, f.name + ' sent. Checking it…');
        });
        xhr.addEventListener('load', function () {
          var r = xhr.response || {};
          if (xhr.status !== 201 || !r.file_id) { fail(refusal(f.name, r)); done(item); return; }
          add(r);
          var last = waiting.length === 1;
          say(status, f.name + ' uploaded (' + (r.encrypted ? 'password-protected: enter its password below' : plural(r.pages, 'page')) + ').' + (last ? ' Set the options and run the tool.' : ''));
          done(item);
        });
        xhr.addEventListener('error', function () { fail('The upload of ' + f.name + ' failed: check the connection and try again.'); done(item); });
        var data = new FormData();
        data.append('file', f, f.name);
        xhr.send(data);
      }
      function choose(files) {
        var all = Array.prototype.slice.call(files || []);
        if (!all.length) return;
        if (max === 1 && all.length > 1) { fail('This tool takes one file: choose a single PDF.'); return; }
        if (max > 1 && items().length + waiting.length + all.length > max) { fail('At most ' + plural(max, 'file') + ' at once.'); return; }
        all.forEach(function (f) {
          var row = document.createElement('li');
          row.textContent = f.name + ' (uploading…)';
          uploading.appendChild(row);
          var item = { file: f, name: f.name, row: row };
          waiting.push(item);
          queue.push(item);
        });
        update();
        next();
      }
      items().forEach(controls);
      ends();
      if (max > 1 && window.MutationObserver) new window.MutationObserver(ends).observe(list, { childList: true });
      seq = items().length;
      input.addEventListener('change', function () { choose(input.files); });
      form.addEventListener('submit', function (e) { e.preventDefault(); choose(input.files); });
      if (zone) {
        ['dragenter', 'dragover'].forEach(function (t) { zone.addEventListener(t, function (e) { e.preventDefault(); zone.classList.add('over'); }); });
        ['dragleave', 'drop'].forEach(function (t) { zone.addEventListener(t, function () { zone.classList.remove('over'); }); });
        zone.addEventListener('drop', function (e) { e.preventDefault(); if (e.dataTransfer) choose(e.dataTransfer.files); });
      }
      run.addEventListener('submit', function (e) {
        e.preventDefault();
        // Never run on part of the files: the ones still uploading would be left out.
        if (waiting.length || running) { update(); if (wait && waiting.length) say(status, wait.textContent); return; }
        var xhr = new XMLHttpRequest();
        xhr.open('POST', run.action);
        xhr.responseType = 'document';
        xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
        running = true;
        update();
        status.classList.remove('bad');
        say(status, 'Running…');
        xhr.addEventListener('load', function () {
          var doc = xhr.response;
          var next = doc && doc.querySelector('main');
          running = false;
          update();
          if (!next) { fail('The server answered ' + xhr.status + '. Try again.'); return; }
          document.title = doc.title;
          var main = document.importNode(next, true);
          document.querySelector('main').replaceWith(main);
          tools(main);
          var h = main.querySelector('#result h2, .error-summary') || main.querySelector('h1');
          if (h) { h.setAttribute('tabindex', '-1'); h.focus(); }
        });
        xhr.addEventListener('error', function () { running = false; update(); fail('The request failed: check the connection and try again.'); });
        xhr.send(new URLSearchParams(new FormData(run)).toString());
      });
    });
  }
  tools(document);
})();

// Page pickers (issue 23): a page-range field (data-page-picker) of a tool page gets the pages of
// the chosen file as thumbnails (drawn by the server, GET /pdf/thumbnails/{file_id}/{page}.png),
// each a checkbox labelled "Page N": ticking pages writes the field ("1-3, 7"), typing in the field
// ticks them. In a list of ranges (data-page-picker="starts": split's, one document per range) a
// ticked page starts a document that runs to the next ticked page ("1-2, 3-5"), as the legend says.
// Without the script, or for a file protected by a password, the field is typed as before.
(function () {
  'use strict';
  if (!window.fetch || !window.MutationObserver) return;
  function ranges(nums) {
    var out = [];
    for (var i = 0; i < nums.length; i++) {
      var start = nums[i];
      while (i + 1 < nums.length && nums[i + 1] === nums[i] + 1) i++;
      out.push(start === nums[i] ? String(start) : start + '-' + nums[i]);
    }
    return out.join(', ');
  }
  // The pages a typed field names (the tools' grammar: all, odd, even, last, N, N-M, N-, -M); unknown tokens name none.
  function parse(text, max) {
    var on = {};
    text.split(',').forEach(function (raw) {
      var t = raw.trim().toLowerCase();
      var num = function (v, d) { return v === '' || v === undefined ? d : v === 'last' ? max : Number(v); };
      var from = 0, to = -1, step = 1;
      if (t === 'all') { from = 1; to = max; }
      else if (t === 'odd') { from = 1; to = max; step = 2; }
      else if (t === 'even') { from = 2; to = max; step = 2; }
      else {
        var m = /^(\d+|last)?\s*-\s*(\d+|last)?$/.exec(t) || /^(\d+|last)$/.exec(t);
        if (!m) return;
        if (t.indexOf('-') < 0) { from = to = num(m[1], 0); }
        else { from = num(m[1], 1); to = num(m[2], max); }
      }
      for (var p = from; p <= Math.min(to, max); p += step) if (p >= 1) on[p] = true;
    });
    return on;
  }
  function say(el, text) { if (el) el.textContent = text; }
  function build(field, box, info, id) {
    var starts = field.getAttribute('data-page-picker') === 'starts';
    box.textContent = '';
    var legend = document.createElement('legend');
    legend.textContent = starts ? 'Or tick the first page of each document of ' + info.filename : 'Or tick the pages of ' + info.filename;
    box.appendChild(legend);
    if (starts) {
      var how = document.createElement('p');
      how.className = 'hint';
      how.textContent = 'Each document runs from a ticked page to the page before the next ticked one; the last to the end of the file. Pages before the first ticked one are left out.';
      box.appendChild(how);
    }
    var status = document.createElement('p');
    status.className = 'hint';
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    box.appendChild(status);
    var list = document.createElement('ul');
    list.className = 'thumbs';
    var boxes = [];
    // A list of ranges ticks the first page of each of its entries.
    function firsts(text) {
      var on = {};
      text.split(',').forEach(function (entry) {
        var pages = Object.keys(parse(entry, info.pages)).map(Number);
        if (pages.length) on[Math.min.apply(null, pages)] = true;
      });
      return on;
    }
    function fromField() {
      var on = starts ? firsts(field.value) : parse(field.value, info.pages);
      boxes.forEach(function (b, i) { b.checked = !!on[i + 1]; });
    }
    function toField() {
      var nums = [];
      boxes.forEach(function (b, i) { if (b.checked) nums.push(i + 1); });
      if (starts) {
        field.value = nums.map(function (n, i) { var end = i + 1 < nums.length ? nums[i + 1] - 1 : info.pages; return end === n ? String(n) : n + '-' + end; }).join(', ');
        say(status, nums.length ? 'Documents of pages ' + field.value + '.' : 'No page ticked: the field is empty.');
        return;
      }
      field.value = ranges(nums);
      say(status, nums.length ? 'Chosen: ' + (nums.length === 1 ? 'page ' : 'pages ') + field.value + '.' : 'No page ticked: the field is empty.');
    }
    for (var p = 1; p <= info.pages; p++) {
      var li = document.createElement('li');
      var cb = document.createElement('input');
      cb.type = 'checkbox'; cb.id = field.id + '-page-' + p; cb.value = String(p);
      var label = document.createElement('label');
      label.htmlFor = cb.id;
      var img = document.createElement('img');
      img.alt = ''; img.loading = 'lazy'; img.decoding = 'async';
      img.src = '/pdf/thumbnails/' + encodeURIComponent(id) + '/' + p + '.png';
      img.addEventListener('error', function () { this.hidden = true; });
      // Below the image, beside its name: the box covers no part of the page.
      var name = document.createElement('span');
      name.appendChild(cb);
      name.appendChild(document.createTextNode('Page ' + p));
      label.appendChild(img);
      label.appendChild(name);
      li.appendChild(label);
      list.appendChild(li);
      cb.addEventListener('change', toField);
      boxes.push(cb);
    }
    box.appendChild(list);
    field.addEventListener('input', fromField);
    fromField();
    box.hidden = false;
  }
  function update() {
    var chosen = document.querySelector('#chosen input[name=file_id]');
    var id = chosen ? chosen.value : '';
    document.querySelectorAll('input[data-page-picker]').forEach(function (field) {
      var box = field.parentNode.querySelector('fieldset.page-picker');
      if (!box) {
        box = document.createElement('fieldset');
        box.className = 'page-picker';
        box.hidden = true;
        field.parentNode.appendChild(box);
      }
      if (box.getAttribute('data-file') === id) return;
      box.setAttribute('data-file', id);
      box.hidden = true;
      box.textContent = '';
      if (!id) return;
      window.fetch('/pdf/thumbnails/' + encodeURIComponent(id), { headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (info) {
          if (!info || box.getAttribute('data-file') !== id) return;
          if (info.status === 'locked') {
            var p = document.createElement('p');
            p.className = 'hint';
            p.textContent = 'The pages of ' + info.filename + ' are not shown: it is protected by a password. Type the pages in the field.';
            box.appendChild(p);
            box.hidden = false;
          } else if (info.status === 'ok') build(field, box, info, id);
        })
        .catch(function () { /* the field is typed as without the script */ });
    });
  }
  onPageChange(update);
})();

// Merge: files reordered by dragging with the mouse (or a finger on the grip), besides the
// "Move up" / "Move down" buttons for keyboards; the order of the list is the order merged.
(function () {
  'use strict';
  if (!window.MutationObserver) return;
  var dragged = null;
  function list() {
    var form = document.querySelector('form[data-upload][data-many]');
    return form ? document.getElementById('chosen') : null;
  }
  function grips() {
    var ul = list();
    if (!ul) return;
    Array.prototype.forEach.call(ul.children, function (li) {
      if (li.querySelector('.grip')) return;
      li.classList.add('draggable');
      var grip = document.createElement('span');
      grip.className = 'grip';
      grip.setAttribute('aria-hidden', 'true');
      grip.title = 'Drag to reorder';
      grip.textContent = '\u2807';
      li.insertBefore(grip, li.firstChild);
    });
  }
  document.addEventListener('pointerdown', function (e) {
    var ul = list();
    var li = ul && e.target.closest && e.target.closest('#chosen > li');
    if (!li || e.button !== 0) return;
    // Buttons and fields keep their own clicks; a touch drags by the grip only (elsewhere it scrolls).
    if (e.target.closest('button, input, a, label')) return;
    if (e.pointerType !== 'mouse' && !e.target.closest('.grip')) return;
    dragged = li;
    li.classList.add('dragging');
    e.preventDefault();
  });
  document.addEventListener('pointermove', function (e) {
    if (!dragged) return;
    var over = document.elementFromPoint(e.clientX, e.clientY);
    var target = over && over.closest && over.closest('#chosen > li');
    if (!target || target === dragged || target.parentNode !== dragged.parentNode) return;
    var box = target.getBoundingClientRect();
    var after = e.clientY > box.top + box.height / 2;
    target.parentNode.insertBefore(dragged, after ? target.nextSibling : target);
  });
  function drop() {
    if (!dragged) return;
    var li = dragged;
    dragged = null;
    li.classList.remove('dragging');
    var all = Array.prototype.slice.call(li.parentNode.children);
    var status = document.getElementById('chosen-status');
    if (status) status.textContent = (li.getAttribute('data-name') || 'The file') + ' moved: ' + (all.indexOf(li) + 1) + ' of ' + all.length + '.';
  }
  document.addEventListener('pointerup', drop);
  document.addEventListener('pointercancel', drop);
  onPageChange(grips);
})();
