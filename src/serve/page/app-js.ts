/** The page's script, served as /app.js: no dependencies, no template literals inside (it is kept in one). */
// biome-ignore format: the script is text, kept as written
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  // Every string from a definition or a render is placed with textContent; the email's HTML goes only into a
  // sandboxed iframe's srcdoc (no allow-scripts, no allow-same-origin).
  var state = { listing: null, selected: null, editors: {}, seq: 0, renders: 0, timer: 0 };
  var SILENT = { digest: true, delay: true, trigger: true, custom: true };

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function where(d) { return d.file + ':' + d.line + ':' + d.column; }

  function loadList() {
    return fetch('/api/workflows').then(function (res) { return res.json(); }).then(function (listing) {
      state.listing = listing;
      var files = listing.workflows.map(function (w) { return w.file; });
      if (state.selected === null || files.indexOf(state.selected) === -1) state.selected = files.length ? files[0] : null;
      drawList();
      drawPreviewChoice();
      return listing;
    });
  }

  function current() {
    if (!state.listing) return null;
    for (var i = 0; i < state.listing.workflows.length; i++)
      if (state.listing.workflows[i].file === state.selected) return state.listing.workflows[i];
    return null;
  }

  function drawList() {
    var nav = $('workflows');
    nav.replaceChildren();
    $('count').textContent = state.listing.workflows.length + ' workflows';
    state.listing.workflows.forEach(function (w) {
      var item = el('button', 'workflow-link' + (w.broken ? ' broken' : '') + (w.file === state.selected ? ' selected' : ''));
      item.type = 'button';
      item.dataset.file = w.file;
      item.append(el('span', 'name', w.name || w.file), el('span', 'muted', w.identifier || w.file));
      if (w.broken) item.append(el('span', 'badge', 'error'));
      var steps = el('ul', 'step-list');
      w.steps.forEach(function (s) { steps.append(el('li', null, '#' + s.index + ' ' + s.name + ' \u00b7 ' + s.type)); });
      item.append(steps);
      item.addEventListener('click', function () { select(w.file); });
      nav.append(item);
    });
  }

  function drawPreviewChoice() {
    var choice = $('preview-choice');
    var w = current();
    var before = choice.value;
    choice.replaceChildren(el('option', null, 'sample data'));
    choice.firstChild.value = '';
    (w ? w.previews : []).forEach(function (name) {
      var option = el('option', null, name);
      option.value = name;
      choice.append(option);
    });
    choice.value = before;
    if (choice.value !== before) choice.value = '';
  }

  function editor() {
    var file = state.selected;
    if (!state.editors[file]) state.editors[file] = { text: '', dirty: false };
    return state.editors[file];
  }

  function select(file) {
    state.selected = file;
    drawList();
    drawPreviewChoice();
    $('payload').value = editor().text;
    $('payload-error').textContent = '';
    render();
  }

  function render() {
    var file = state.selected;
    if (file === null) { $('preview').replaceChildren(el('p', 'muted', 'No workflow definitions found.')); return Promise.resolve(); }
    var body = { file: file };
    var ed = editor();
    if (ed.dirty) {
      try { body.payload = JSON.parse(ed.text); } catch (error) { showJsonError(error); return Promise.resolve(); }
      if (body.payload === null || typeof body.payload !== 'object' || Array.isArray(body.payload)) {
        $('payload-error').textContent = 'The payload must be a JSON object.';
        return Promise.resolve();
      }
    }
    if ($('preview-choice').value) body.preview = $('preview-choice').value;
    var seq = ++state.seq;
    return fetch('/api/render', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (res) { return res.json().then(function (answer) { return { ok: res.ok, answer: answer }; }); })
      .then(function (result) {
        if (seq !== state.seq) return;
        if (!result.ok) { $('payload-error').textContent = result.answer.error || 'The preview could not be rendered.'; return; }
        $('payload-error').textContent = '';
        drawWorkflow(result.answer, file);
        state.renders++;
        document.body.dataset.renders = String(state.renders);
        document.body.dataset.version = String(result.answer.version);
      });
  }

  function showJsonError(error) {
    $('payload-error').textContent = 'Not JSON: ' + (error && error.message ? error.message : String(error));
  }

  function drawWorkflow(answer, file) {
    var root = $('preview');
    var listed = current() || { file: file, steps: [] };
    var w = answer.workflow;
    var section = el('section', 'workflow');
    section.dataset.file = file;
    section.append(el('h2', null, (w && w.name) || listed.name || file));
    section.append(el('div', 'file', ((w && w.identifier) || listed.identifier || '') + ' \u00b7 ' + file));
    var ed = editor();
    if (w && !ed.dirty) {
      var first = w.steps.length ? w.steps[0].payload : {};
      ed.text = JSON.stringify(first, null, 2);
      if (state.selected === file) $('payload').value = ed.text;
    }
    var diagnostics = (w ? w.diagnostics : answer.diagnostics) || [];
    // A broken file's errors stand in place of its steps (below), so the list keeps only what is not shown there.
    var inPlace = w ? [] : diagnostics.filter(function (d) { return d.severity === 'error'; });
    // So do a failing step's errors, in its box: the renderer's findings there explain why the step fails.
    var failing = {};
    if (w) w.steps.forEach(function (s) { if (s.error !== undefined) failing[s.index] = []; });
    diagnostics.forEach(function (d) {
      var step = /^\/steps\/(\d+)(\/|$)/.exec(d.pointer || '');
      if (d.severity !== 'error' || !step || !failing[step[1]]) return;
      failing[step[1]].push(d);
      inPlace.push(d);
    });
    diagnostics = diagnostics.filter(function (d) { return inPlace.indexOf(d) === -1; });
    if (diagnostics.length) {
      var list = el('ul', 'diagnostics');
      diagnostics.forEach(function (d) {
        var item = el('li');
        item.append(el('span', 'where', where(d)), ' ', el('span', d.severity, d.severity), ' ', d.message + ' ', el('span', 'muted', d.code));
        list.append(item);
      });
      section.append(list);
    }
    var steps = el('div', 'steps');
    if (!w) {
      // The file is broken: its error stands in place of its steps until it is fixed.
      var broken = el('div', 'render-error file-error');
      broken.dataset.role = 'file-error';
      broken.textContent = located(inPlace) || 'This file cannot be read.';
      steps.append(broken);
    } else {
      w.steps.forEach(function (s) { steps.append(drawStep(s, failing[s.index] || [])); });
    }
    section.append(steps);
    root.replaceChildren(section);
  }

  function located(diagnostics) {
    return diagnostics.map(function (d) { return where(d) + ' ' + d.message + ' [' + d.code + ']'; }).join('\n');
  }

  // A failing step's box: its located errors when the renderer explains the failure, else the render's own error.
  function drawStep(s, errors) {
    var article = el('article', 'step ' + s.type);
    article.dataset.step = String(s.index);
    var heading = el('h3', null, '#' + s.index + ' ' + s.name);
    heading.append(el('span', 'type', s.type));
    article.append(heading);
    if (s.error !== undefined) {
      var error = el('div', 'render-error', located(errors) || s.error);
      error.dataset.role = 'step-error';
      article.append(error);
      return article;
    }
    if (SILENT[s.type]) { article.append(el('div', 'silent', 'no message: this step sends nothing')); return article; }
    var text = s.content || '';
    function body(cls) { return text.trim() === '' ? el('div', 'empty', '(empty)') : el('div', cls, text); }
    var phone;
    if (s.type === 'email') {
      var meta = el('dl', 'meta');
      [['From', s.senderName], ['Subject', s.subject], ['Preheader', s.preheader], ['Layout', s.layout]].forEach(function (pair) {
        if (pair[1] === undefined || pair[1] === '') return;
        meta.append(el('dt', null, pair[0]), el('dd', null, pair[1]));
      });
      if (meta.childNodes.length) article.append(meta);
      if (s.contentType === 'text') { article.append(el('pre', 'text-body', text)); return article; }
      var frame = document.createElement('iframe');
      frame.setAttribute('sandbox', '');
      frame.setAttribute('referrerpolicy', 'no-referrer');
      frame.className = 'email-body';
      frame.title = 'email: ' + s.name;
      frame.srcdoc = text;
      article.append(frame);
    } else if (s.type === 'sms' || s.type === 'chat') {
      phone = el('div', 'phone');
      phone.append(body(s.type === 'chat' ? 'bubble chat' : 'bubble'));
      article.append(phone);
    } else if (s.type === 'push') {
      phone = el('div', 'phone');
      var note = el('div', 'notification');
      note.append(el('div', 'title', s.title || ''), body('body'));
      phone.append(note);
      article.append(phone);
    } else if (s.type === 'in_app') {
      var card = el('div', 'inbox');
      if (s.title) card.append(el('strong', 'notification-title', s.title));
      card.append(body('body'));
      if (s.cta) {
        var actions = el('div', 'cta');
        (s.cta.buttons || []).forEach(function (b) { actions.append(el('span', 'button' + (b.type === 'primary' ? ' primary' : ''), b.content)); });
        if (s.cta.label) actions.append(el('span', 'button primary', s.cta.label));
        if (actions.childNodes.length) card.append(actions);
        if (s.cta.url) card.append(el('div', 'url', 'opens ' + s.cta.url));
      }
      article.append(card);
    } else {
      article.append(el('pre', 'text-body', text));
    }
    return article;
  }

  $('payload').addEventListener('input', function () {
    var ed = editor();
    ed.text = $('payload').value;
    ed.dirty = true;
    clearTimeout(state.timer);
    try { JSON.parse(ed.text); } catch (error) { showJsonError(error); return; }
    $('payload-error').textContent = '';
    state.timer = setTimeout(render, 100);
  });
  $('reset').addEventListener('click', function () {
    editor().dirty = false;
    render();
  });
  $('preview-choice').addEventListener('change', function () {
    editor().dirty = false;
    render();
  });

  var events = new EventSource('/api/events');
  events.addEventListener('change', function (message) {
    var change = JSON.parse(message.data);
    loadList().then(function () {
      if (change.files.indexOf(state.selected) !== -1 || !document.querySelector('#preview section')) return render();
      document.body.dataset.version = String(change.version);
    });
  });
  events.addEventListener('open', function () { $('live').textContent = 'live'; $('live').className = 'live on'; });
  events.addEventListener('error', function () { $('live').textContent = 'reconnecting\u2026'; $('live').className = 'live off'; });

  loadList().then(function () { if (state.selected !== null) select(state.selected); else render(); });
})();
`;
