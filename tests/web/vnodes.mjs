// Reading the web client's vnodes (clients/web/js/dom.js `h`) in the Node checks
// (tests/web/*_check.mjs): their text, and the nodes that pass a test.

/** The text a vnode (or a string) shows, its children's joined. */
export const textOf = (node) => (typeof node === "object"
  ? node.children.map(textOf).join("") : String(node));

/** Every vnode under `node` (itself included) that `test` accepts. */
export function findAll(node, test, found = []) {
  if (typeof node !== "object" || node === null) return found;
  if (test(node)) found.push(node);
  for (const child of node.children) findAll(child, test, found);
  return found;
}

/** A test for `findAll`: the vnode has the class `name`. */
export const byClass = (name) => (node) => (node.props.class ?? "").split(" ").includes(name);
