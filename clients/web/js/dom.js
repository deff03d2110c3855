// Describing DOM nodes without a document, so that Node tests what a page draws:
// h("button", {onclick, class: "x"}, "text", child) is a plain object (a vnode), and
// `mount` turns it into a node in the browser. A handler is a function, or an intent (any
// other value) that `mount` hands to its `dispatch` on the event: the drawing functions
// say what a click means, the page decides what it does.

/** @typedef {{tag: string, props: object, children: Array<object|string>}} VNode */

/** A vnode: `children` flattened, the empty ones (null, undefined, false) left out. */
export function h(tag, props = {}, ...children) {
  return {
    tag, props,
    children: children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false),
  };
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * A DOM node for a vnode (a DOM node or text given instead is taken as it is). An `svg`
 * and everything in it are SVG elements, whose props are all attributes.
 * @param {(intent: unknown, event: Event) => void} [dispatch] receives the intents
 */
export function mount(vnode, dispatch, inSvg = false) {
  if (typeof vnode !== "object") return document.createTextNode(String(vnode));
  if (!("tag" in vnode && "props" in vnode)) return vnode; // already a node
  const svg = inSvg || vnode.tag === "svg";
  const node = svg ? document.createElementNS(SVG, vnode.tag) : document.createElement(vnode.tag);
  for (const [key, value] of Object.entries(vnode.props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) {
      node.addEventListener(key.slice(2), typeof value === "function" ? value
        : (event) => dispatch(value, event));
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else if (!svg && key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of vnode.children) node.append(mount(child, dispatch, svg));
  return node;
}

/** A DOM node at once: for nodes a page keeps (inputs it reads, lists it appends to). */
export function el(tag, props = {}, ...children) {
  return mount(h(tag, props, ...children));
}

/** Replace a node's children (vnodes are mounted, with `dispatch` for their intents). */
export function fill(node, ...children) {
  return fillWith(node, undefined, ...children);
}

export function fillWith(node, dispatch, ...children) {
  node.replaceChildren(...children.flat(Infinity)
    .filter((c) => c !== null && c !== undefined && c !== false)
    .map((child) => mount(child, dispatch)));
  return node;
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
