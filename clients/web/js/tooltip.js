// A card's text (its `.card-text`, card.js `cardTexts`) shown beside its card while a
// mouse is over the card or it has keyboard focus, and nowhere else (never for a finger:
// a tap is no hover, nor is the mouse a phone makes up where the finger last was, which
// its browser moves over whatever the page draws there next; a long press opens the
// card-info dialog instead): copied into one floating `.tooltip` per page, placed from the
// card's box, inside the window (above the card, or below it when there is no room), and
// hidden the moment the card moves or leaves the page, the page scrolls, or Escape is
// pressed. Screen readers read the text through aria-describedby whether it is shown or
// not (the copy is hidden from them). One watcher serves every page, by delegation from
// the document.

const GAP = 4; // px between a card and its text
const MARGIN = 8; // px kept from the window's edges

/** Where a tip of `tip`'s size goes for a card at `card` in a `width`×`height` window. */
export function tipPlace(card, tip, width, height) {
  const centred = card.left + card.width / 2 - tip.width / 2;
  const left = Math.max(MARGIN, Math.min(centred, width - MARGIN - tip.width));
  const above = card.top - GAP - tip.height;
  const below = card.bottom + GAP;
  // above when it fits; below when that fits; else on the side with more room
  const up = above >= MARGIN
    || (below + tip.height > height - MARGIN && card.top > height - card.bottom);
  return { left: Math.round(Math.max(MARGIN, left)),
    top: Math.round(up ? Math.max(MARGIN, above) : below) };
}

const boxOf = (node) => {
  const { left, top, width, height } = node.getBoundingClientRect();
  return `${left} ${top} ${width} ${height}`;
};

/** Start showing cards' texts in `doc`; returns the function that stops it. */
export function watchTooltips(doc = document) {
  const view = doc.defaultView;
  let shown = null; // {card, box}: the card whose text is shown, and where it was
  let frame = null;
  const tip = doc.createElement("div"); // the one tooltip: a copy of the card's text
  tip.className = "tooltip";
  tip.setAttribute("aria-hidden", "true"); // (read as the card's description already)

  const hide = () => {
    if (!shown) return;
    tip.classList.remove("shown");
    tip.style.removeProperty("left");
    tip.style.removeProperty("top");
    delete tip.dataset.for;
    shown = null;
    view.cancelAnimationFrame(frame);
  };
  // every frame while shown: a card drawn again, moved or gone takes its text with it
  const follow = () => {
    if (!shown) return;
    if (!shown.card.isConnected || boxOf(shown.card) !== shown.box) {
      hide();
      return;
    }
    frame = view.requestAnimationFrame(follow);
  };
  const show = (card) => {
    const text = doc.getElementById(card.getAttribute("aria-describedby") ?? "");
    if (!text?.classList.contains("card-text") || shown?.card === card) return;
    hide();
    tip.replaceChildren(...[...text.childNodes].map((node) => node.cloneNode(true)));
    tip.dataset.for = card.dataset.key ?? "";
    if (!tip.isConnected) doc.body.append(tip);
    tip.classList.add("shown");
    const place = tipPlace(card.getBoundingClientRect(), tip.getBoundingClientRect(),
      view.innerWidth, view.innerHeight);
    tip.style.left = `${place.left}px`;
    tip.style.top = `${place.top}px`;
    shown = { card, box: boxOf(card) };
    frame = view.requestAnimationFrame(follow);
  };
  // a touch screen's (its mouse events are made up: where the finger last was)
  const fingers = view.matchMedia("(pointer: coarse)");
  const cardOf = (target) => (target instanceof view.Element ? target.closest(".card") : null);

  const listeners = {
    // a mouse's hover (a finger's tap is no hover: a long press opens the card's text)
    pointerover: (event) => {
      const card = cardOf(event.target);
      if (card && event.pointerType !== "touch" && !fingers.matches) show(card);
    },
    pointerout: (event) => {
      if (shown && cardOf(event.target) === shown.card
        && !shown.card.contains(event.relatedTarget)) hide();
    },
    // keyboard focus, not the focus a click leaves behind
    focusin: (event) => {
      const card = cardOf(event.target);
      if (card?.matches(":focus-visible")) show(card);
    },
    focusout: (event) => {
      if (shown && event.target === shown.card) hide();
    },
    scroll: hide,
    keydown: (event) => {
      if (event.key === "Escape") hide();
    },
  };
  for (const [type, listener] of Object.entries(listeners)) {
    doc.addEventListener(type, listener, { capture: true, passive: true });
  }
  view.addEventListener("resize", hide);
  return () => {
    hide();
    tip.remove();
    for (const [type, listener] of Object.entries(listeners)) {
      doc.removeEventListener(type, listener, { capture: true });
    }
    view.removeEventListener("resize", hide);
  };
}
