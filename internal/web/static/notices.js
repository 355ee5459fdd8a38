// notices.js: what the page tells the person beside the board: notices
// (errors, and news that go by themselves), copying text to the clipboard
// (the outcome a notice), and the engine log, every line sent to the
// engine and read from it. LineLog, the log's memory, touches no DOM:
// node --test runs it (internal/web/jstest).

const $ = (id) => document.getElementById(id);

/** notice shows text at the top of the page (kind 'error', or 'info': gone after 8 s); four stay at most. */
export function notice(text, kind) {
  const box = $('notices');
  const div = document.createElement('div');
  div.className = `notice ${kind || ''}`;
  const span = document.createElement('span');
  span.className = 'text';
  span.textContent = text;
  const close = document.createElement('button');
  close.textContent = '✕';
  close.title = 'dismiss';
  close.onclick = () => div.remove();
  div.append(span, close);
  box.append(div);
  while (box.children.length > 4) box.firstChild.remove();
  if (kind === 'info') setTimeout(() => div.remove(), 8000);
}

/** copyText puts text on the clipboard; what names it in the notice that says how it went. */
export async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    notice(`${what} copied.`, 'info');
  } catch {
    notice(`${what} is in the text field below; the browser did not allow copying it.`, 'info');
  }
}

/**
 * LineLog keeps the engine log's last max lines ([kind, text]) and how
 * many a pane shows, which draws only what is new: the engine writes many
 * lines a second. The oldest are dropped at max + slack, not every line.
 */
export class LineLog {
  constructor(max = 3000, slack = 500) {
    this.max = max;
    this.slack = slack;
    this.lines = [];
    this.drawn = 0; // how many of lines the pane shows; -1: it must be drawn anew
  }

  push(kind, text) {
    this.lines.push([kind, text]);
    if (this.lines.length > this.max + this.slack) {
      this.lines.splice(0, this.lines.length - this.max);
      this.drawn = -1;
    }
  }

  /** take returns what the pane draws now, {clear: empty it first, lines: to add}; then it shows all. */
  take() {
    let clear = this.drawn < 0 || this.drawn > this.lines.length;
    if (clear) this.drawn = 0;
    const from = Math.max(this.drawn, this.lines.length - this.max);
    if (from > this.drawn) clear = true;
    this.drawn = this.lines.length;
    return { clear, lines: this.lines.slice(from) };
  }

  /** clear forgets every line: the pane, emptied, shows none. */
  clear() {
    this.lines.length = 0;
    this.drawn = 0;
  }

  /** last returns the texts of the last n lines, one a line. */
  last(n) {
    return this.lines.slice(-n).map((l) => l[1]).join('\n');
  }
}

// The engine log: kept always, drawn only while its pane is open, once a frame.
const engineLog = new LineLog();
let logFrame = 0;

/** logLine adds a line to the engine log; kind is its class ('sent', 'recv', 'err', 'note'). */
export function logLine(kind, text) {
  engineLog.push(kind, text);
  if ($('logbox').open && !logFrame) logFrame = requestAnimationFrame(drawLog);
}

function drawLog() {
  logFrame = 0;
  const log = $('log');
  const { clear, lines } = engineLog.take();
  if (clear) log.textContent = '';
  const frag = document.createDocumentFragment();
  for (const [kind, text] of lines) {
    const div = document.createElement('div');
    div.className = kind;
    div.textContent = text;
    frag.append(div);
  }
  log.append(frag);
  while (log.childElementCount > engineLog.max) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** setupLog wires the log's pane: Clear empties it, opening it draws it anew. */
export function setupLog() {
  $('log-clear').onclick = () => { engineLog.clear(); $('log').textContent = ''; };
  $('logbox').addEventListener('toggle', () => { if ($('logbox').open) { engineLog.drawn = -1; drawLog(); } });
}

/** lastLogLines returns the texts of the engine log's last n lines (for the tests). */
export function lastLogLines(n) {
  return engineLog.last(n);
}
