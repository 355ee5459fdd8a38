// fakedom.mjs: a page of fake elements for the tests of the modules that
// work on the DOM (game.js, app.js) under node, which has none. An element
// keeps what is written to it (its value, text, children, attributes,
// listeners); its methods do what those modules ask of them and no more.

/** FakeElement is any element of the page. */
export class FakeElement {
  constructor(tag) {
    this.tag = tag;
    this.value = '';
    this.textContent = '';
    this.innerHTML = '';
    this.className = '';
    this.hidden = false;
    this.disabled = false;
    this.checked = false;
    this.dataset = {};
    this.style = {};
    this.children = [];
    this.listeners = new Map();
    this.classList = { add() {}, remove() {}, toggle() {}, contains: () => false };
  }

  append(...nodes) { this.children.push(...nodes); }
  appendChild(node) { this.children.push(node); return node; }
  replaceChildren(...nodes) { this.children = nodes; }
  setAttribute(k, v) { this[k] = String(v); }
  removeAttribute(k) { delete this[k]; }
  addEventListener(type, fn) { this.listeners.set(type, fn); }
  removeEventListener() {}
  remove() {}
  focus() {}
  click() {}
  scrollIntoView() {}
  closest() { return null; }
  querySelector() { return new FakeElement('query'); }
  querySelectorAll() { return []; }
  getBoundingClientRect() { return { left: 0, top: 0, width: 100, height: 100 }; }
}

/**
 * installPage makes globalThis.document a page whose elements by id are
 * made on first use, and location the server's address. It returns byId
 * (the element of an id) and the document's own listeners by event type.
 */
export function installPage() {
  const elements = new Map();
  const byId = (id) => {
    if (!elements.has(id)) elements.set(id, new FakeElement(id));
    return elements.get(id);
  };
  const listeners = new Map();
  globalThis.document = {
    getElementById: byId,
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (_ns, tag) => new FakeElement(tag),
    createTextNode: (text) => ({ textContent: text }),
    createDocumentFragment: () => new FakeElement('fragment'),
    addEventListener: (type, fn) => listeners.set(type, fn),
    removeEventListener() {},
    activeElement: null,
    body: new FakeElement('body'),
  };
  globalThis.location = { protocol: 'http:', host: '127.0.0.1:8080', search: '' };
  return { byId, listeners };
}
