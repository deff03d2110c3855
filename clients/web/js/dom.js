// Describing DOM nodes without a document, so that Node tests what a page draws:
// h("button", {onclick, class: "x"}, "text", child) is a plain object (a vnode), and
// `mount` turns it into a node in the browser. A handler is a function, or an intent (any
// other value) that `mount` hands to its `dispatch` on the event: the drawing functions
// say what a click means, the page decides what it does. `patch` draws a vnode again over
// the node drawn before, touching only what differs (a `key` prop matches a child to the
// node drawn for the same key, wherever it was among its siblings).

/** @typedef {{tag: string, props: object, children: Array<object|string>}} VNode */

const DRAWN = Symbol("the vnode a node was drawn from");
const HANDLERS = Symbol("a node's handlers, by event type");
const CHILDREN = Symbol("the child nodes drawn (only patch changes them)");

/** A vnode: `children` flattened, the empty ones (null, undefined, false) left out. */
export function h(tag, props = {}, ...children) {
  return {
    tag, props,
    children: children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false),
  };
}

const SVG = "http://www.w3.org/2000/svg";

/** Nothing to draw: a prop so valued is left out. */
function absent(value) {
  return value === undefined || value === null || value === false;
}

function isVNode(value) {
  return typeof value === "object" && "tag" in value && "props" in value;
}

/** The event types that one listener of the document hands to the nodes drawn, walking
 *  up from the event's target as it would bubble (every card face has a click and a long
 *  press: a listener of its own on each cost the draw that mounts them; issue 38). */
const DELEGATED = new Set(["click", "contextmenu"]);
/** The documents listening for the delegated types, and which. */
const delegating = new WeakMap();

/** Call the node's current handler of this event type, if it has one. */
function handle(node, type, event) {
  const on = node[HANDLERS]?.get(type);
  if (!on) return;
  if (typeof on.handler === "function") on.handler.call(node, event);
  else on.dispatch(on.handler, event);
}

/** The document's one listener for a delegated type: each node from the target up has
 *  its handler called, innermost first, until one stops the event's propagation. */
function delegate(doc, type) {
  let types = delegating.get(doc);
  if (!types) {
    types = new Set();
    delegating.set(doc, types);
  }
  if (types.has(type)) return;
  types.add(type);
  doc.addEventListener(type, (event) => {
    for (let node = event.target; node && !event.cancelBubble; node = node.parentNode) {
      handle(node, type, event);
    }
  });
}

/** A node's handler of an event type: the document's listener calls it for a delegated
 *  type, else one listener of the node's own (patch replaces the handler, not it). */
function listen(node, type, handler, dispatch) {
  let handlers = node[HANDLERS];
  if (!handlers) {
    handlers = new Map();
    node[HANDLERS] = handlers;
  }
  if (!handlers.has(type)) {
    if (DELEGATED.has(type)) delegate(node.ownerDocument, type);
    else node.addEventListener(type, (event) => handle(node, type, event));
  }
  handlers.set(type, absent(handler) ? null : { handler, dispatch });
}

function setProp(node, key, value, dispatch) {
  if (key === "key") return; // matches children; not drawn
  if (key.startsWith("on")) listen(node, key.slice(2), value, dispatch);
  else if (absent(value)) node.removeAttribute(key === "class" ? "class" : key);
  // an SVG node draws its attributes (its className and most properties are read-only)
  else if (node.namespaceURI === SVG) node.setAttribute(key, value === true ? "" : value);
  else if (key === "class") node.className = value;
  else if (key in node && typeof value !== "string") node[key] = value;
  else node.setAttribute(key, value === true ? "" : value);
}

function patchDataset(node, before = {}, after = {}) {
  for (const name of Object.keys(before)) {
    if (!(name in after)) delete node.dataset[name];
  }
  for (const [name, value] of Object.entries(after)) {
    if (before[name] !== value) node.dataset[name] = value;
  }
}

/**
 * A DOM node for a vnode (a DOM node or text given instead is taken as it is).
 * An `svg` and its children are made in the SVG namespace.
 * @param {(intent: unknown, event: Event) => void} [dispatch] receives the intents
 */
export function mount(vnode, dispatch, inSvg = false) {
  if (typeof vnode !== "object") return document.createTextNode(String(vnode));
  if (!isVNode(vnode)) return vnode; // already a node
  const svg = inSvg || vnode.tag === "svg";
  const node = svg ? document.createElementNS(SVG, vnode.tag) : document.createElement(vnode.tag);
  for (const [key, value] of Object.entries(vnode.props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (!absent(value)) setProp(node, key, value, dispatch);
  }
  const children = vnode.children.map((child) => mount(child, dispatch, svg));
  node.append(...children);
  node[DRAWN] = vnode;
  node[CHILDREN] = children;
  return node;
}

/**
 * Draw `vnode` over `node` (drawn by mount or patch before, or null): the same node when
 * its tag is the same, with only the props, text and children that differ changed;
 * otherwise a new one. A DOM node given instead is taken as it is, and so is the node
 * drawn from this very vnode object (a view that keeps the vnode of a part whose data did
 * not change spares its walk; its handlers keep the dispatch they were drawn with).
 * @returns {Node} the node that now shows `vnode`
 */
export function patch(node, vnode, dispatch, inSvg = false) {
  if (typeof vnode !== "object") {
    const text = String(vnode);
    if (node?.nodeType !== Node.TEXT_NODE) return document.createTextNode(text);
    if (node.nodeValue !== text) node.nodeValue = text;
    return node;
  }
  if (!isVNode(vnode)) return vnode;
  const before = node?.[DRAWN];
  if (before === vnode) return node; // the very vnode drawn there (kept by its view): as it is
  if (!before || before.tag !== vnode.tag) return mount(vnode, dispatch, inSvg);
  const { props } = vnode;
  for (const key in props) {
    const value = props[key];
    if (key === "dataset") patchDataset(node, before.props.dataset, value);
    else if (value !== before.props[key] || key.startsWith("on")) setProp(node, key, value, dispatch);
  }
  for (const key in before.props) {
    if (key in props) continue;
    if (key === "dataset") patchDataset(node, before.props.dataset, {});
    else setProp(node, key, undefined, dispatch);
  }
  patchChildren(node, vnode.children, dispatch);
  node[DRAWN] = vnode;
  return node;
}

/** Draw `children` (vnodes, text or DOM nodes) as the node's children over those drawn
 *  before: a keyed vnode over the child of its key, the others over the unkeyed children
 *  in order; a DOM node given is never drawn over. */
function patchChildren(parent, children, dispatch) {
  const before = parent[CHILDREN] ?? [...parent.childNodes];
  const given = children.some((child) => typeof child === "object" && !isVNode(child))
    ? new Set(children) : null;
  let keyed = null;
  let unkeyed = before;
  if (given || before.some((child) => child[DRAWN]?.props.key !== undefined)) {
    keyed = new Map();
    unkeyed = [];
    for (const child of before) {
      const key = child[DRAWN]?.props.key;
      if (key !== undefined) keyed.set(key, child);
      else if (!given?.has(child)) unkeyed.push(child);
    }
  }
  let next = 0;
  const nodes = children.map((child) => {
    const key = isVNode(child) ? child.props.key : undefined;
    let old = null;
    if (key === undefined) old = unkeyed[next++];
    else if (keyed) {
      old = keyed.get(key);
      keyed.delete(key); // one node per key
    }
    return patch(old ?? null, child, dispatch, parent.namespaceURI === SVG);
  });
  place(parent, before, nodes);
  parent[CHILDREN] = nodes;
}

/** Make `nodes` the children of `parent` (whose children are `before`), in this order:
 *  the others removed first, so that only those out of place move (a node moved loses
 *  the focus); nothing is touched when nothing changed. */
function place(parent, before, nodes) {
  if (before.length === nodes.length && nodes.every((node, at) => node === before[at])) return;
  const kept = new Set(nodes);
  for (const child of before) {
    if (!kept.has(child)) child.remove();
  }
  let there = parent.firstChild;
  for (const node of nodes) {
    if (node === there) there = there.nextSibling;
    else parent.insertBefore(node, there);
  }
}

/** Make `nodes` the node's children, in this order, moving only those out of place. */
export function arrange(parent, nodes) {
  place(parent, [...parent.childNodes], nodes);
}

/** A DOM node at once: for nodes a page keeps (inputs it reads, lists it appends to),
 *  which `patch` never draws over. */
export function el(tag, props = {}, ...children) {
  const node = mount(h(tag, props, ...children));
  delete node[DRAWN];
  delete node[CHILDREN]; // the page changes its children
  return node;
}

/** Replace a node's children (vnodes are mounted, with `dispatch` for their intents). */
export function fill(node, ...children) {
  return fillWith(node, undefined, ...children);
}

export function fillWith(node, dispatch, ...children) {
  delete node[CHILDREN]; // drawn anew: patch reads them again
  node.replaceChildren(...children.flat(Infinity).filter((c) => !absent(c))
    .map((child) => mount(child, dispatch)));
  return node;
}

/** `fillWith`, drawn over the children drawn before (`patch`): only what differs changes. */
export function patchWith(node, dispatch, ...children) {
  patchChildren(node, children.flat(Infinity).filter((c) => !absent(c)), dispatch);
  return node;
}

/**
 * A page's drawing (the controller/view/redraw pattern): the page keeps its state and
 * actions, `view()` says what the state looks like (vnodes), and the function returned
 * draws it into `root` over what it drew before: call it after every change of state.
 * Its `stop()` ends the drawing when the page is left: an answer coming later draws
 * nothing over the next page.
 * @param {HTMLElement} root where the page draws
 * @param {() => unknown} view the page's vnodes (a vnode, or a list of them)
 * @param {(intent: unknown, event: Event) => void} [dispatch] receives the intents
 * @returns {{(): boolean, stop: () => void}} redraw: whether it drew
 */
export function redrawing(root, view, dispatch) {
  let drawing = true;
  const redraw = () => {
    if (drawing) patchWith(root, dispatch, view());
    return drawing;
  };
  redraw.stop = () => {
    drawing = false;
  };
  return redraw;
}

/**
 * Coalesce many calls in one frame into one `draw`, on the next animation frame.
 * @param {() => void} draw
 * @param {(callback: () => void) => unknown} requestFrame requestAnimationFrame
 * @returns {() => void} schedule: mark the page dirty
 */
export function oncePerFrame(draw, requestFrame) {
  let dirty = false;
  return () => {
    if (dirty) return;
    dirty = true;
    requestFrame(() => {
      dirty = false;
      draw();
    });
  };
}
