"""How the game's page draws an update, in Debian's Chromium: over what it drew before
(dom.js `patch`), so that a pile, a chip or a card whose data did not change keeps its
node, and one whose data changed keeps its node with only that data changed; the log
still shows its last line."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import (
    Browser,
    Page,
    act,
    browser,
    create_table,
    decision_id,
    my_turn,
    new_page,
    server_url,
)

__all__ = ["browser", "server_url"]  # fixtures
pytestmark = pytest.mark.slow  # Chromium

DOM = """async () => {
  const main = document.querySelector('script[type=module]').src;
  return import(main.replace(/main\\.js$/, 'dom.js'));
}"""
"""The page's own dom.js, imported in the page (the script the page loaded, by its address)."""

PATCHING = """async ({ drawings, given }) => {
  const { h, mount, patch, patchWith, el } = await (""" + DOM + """)();
  const changes = [];
  const got = [];
  const list = ({ piles, intent }) => h('ul', { class: 'piles' }, piles.map(([card, left]) =>
    h('li', { key: card, class: left ? 'pile' : 'pile empty' },
      h('button', { ...(left ? { dataset: { card } } : {}), onclick: intent, disabled: !left },
        `${card} ×${left}`))));
  const dispatch = (intent, event) => got.push(`${intent} ${event.target.dataset.card}`);
  const [first, ...again] = drawings;
  const root = mount(list(first), dispatch);
  document.body.append(root);
  const before = [...root.children];
  const texts = [...root.querySelectorAll('button')].map((b) => b.firstChild);
  new MutationObserver((records) => changes.push(...records.map(
    (r) => (r.type === 'attributes' ? `attr ${r.attributeName}` : r.type))))
    .observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  for (const drawing of again) patch(root, list(drawing), dispatch);
  await new Promise((done) => setTimeout(done, 0)); // the observer's records
  root.querySelector('[data-card="copper"]').click();
  const result = { changes, got, html: root.innerHTML,
    kept: [...root.children].map((node) => before.indexOf(node)),
    textsKept: [...root.querySelectorAll('button')].map((b) => texts.indexOf(b.firstChild)) };
  root.remove();
  if (given) {
    const log = el('ul', { class: 'log' }, h('li', {}, 'kept'));
    const holder = mount(h('div', {}, h('ul', {}, h('li', {}, 'drawn'))));
    patchWith(holder, undefined, log);
    patchWith(holder, undefined, h('ul', {}, h('li', {}, 'drawn again')), log);
    result.given = [holder.children.length, holder.lastChild === log, log.textContent,
      holder.firstChild.textContent];
  }
  return result;
}"""
"""Piles drawn (the first drawing), then drawn again over themselves (the others): what
changed in the DOM after the first (MutationObserver), which of the first nodes were kept,
what a click on Copper then dispatches."""
PILES = [["copper", 46], ["silver", 40], ["gold", 30]]


def drawn(page: Page, *drawings: tuple[list[list[Any]], str], given: bool = False) -> Any:
    return page.evaluate(PATCHING, {
        "drawings": [{"piles": piles, "intent": intent} for piles, intent in drawings],
        "given": given})


@pytest.fixture(scope="module")
def page(browser: Browser, server_url: str) -> Any:
    page = new_page(browser, server_url)
    page.wait_for_selector("form.create")
    yield page
    page.context.close()


def test_drawing_the_same_again_changes_nothing(page: Page) -> None:
    result = drawn(page, (PILES, "buy"), (PILES, "buy"))
    assert result["changes"] == []
    assert result["kept"] == [0, 1, 2] and result["textsKept"] == [0, 1, 2]
    assert result["got"] == ["buy copper"]  # one listener, not one more per drawing


def test_a_count_that_changed_changes_only_its_text(page: Page) -> None:
    fewer = [["copper", 46], ["silver", 39], ["gold", 30]]
    result = drawn(page, (PILES, "buy"), (fewer, "buy"))
    assert result["changes"] == ["characterData"]
    assert result["kept"] == [0, 1, 2] and result["textsKept"] == [0, 1, 2]
    assert "silver ×39" in result["html"]


def test_a_prop_left_out_is_removed_and_a_new_handler_is_called(page: Page) -> None:
    empty = [["copper", 46], ["silver", 0], ["gold", 30]]
    result = drawn(page, (PILES, "buy"), (empty, "gain"))
    assert sorted(result["changes"]) == ["attr class", "attr data-card", "attr disabled",
                                         "characterData"]
    assert '<li class="pile empty"><button disabled="">silver ×0' in result["html"]
    assert result["got"] == ["gain copper"]
    again = drawn(page, (PILES, "buy"), (empty, "buy"), (PILES, "buy"))
    assert again["kept"] == [0, 1, 2]
    assert '<li class="pile"><button data-card="silver">silver ×40' in again["html"]


def test_keyed_children_keep_their_nodes_in_a_new_order(page: Page) -> None:
    result = drawn(page, (PILES, "buy"), ([["gold", 30], ["copper", 46]], "buy"))
    assert result["kept"] == [2, 0]  # gold and copper, moved; silver gone
    assert "silver" not in result["html"]


def test_a_node_the_page_keeps_is_never_drawn_over(page: Page) -> None:
    given = drawn(page, (PILES, "buy"), given=True)["given"]
    assert given == [2, True, "kept", "drawn again"]


SAME_VNODE = """async () => {
  const { h, mount, patch } = await (""" + DOM + """)();
  const vnode = h('ul', { class: 'piles' }, h('li', {}, 'Copper ×46'));
  const node = mount(vnode);
  const children = vnode.children;
  let looked = 0;
  Object.defineProperty(vnode, 'children', { get() { looked += 1; return children; } });
  return { same: patch(node, vnode) === node, looked, html: node.outerHTML };
}"""
"""A vnode drawn, then drawn again as the very same object (a view kept it)."""


def test_the_very_vnode_drawn_again_is_passed_over(page: Page) -> None:
    """A part whose data did not change, kept by its view as the same vnode (a pile of
    the Supply), costs no walk: `patch` does not look into it."""
    assert page.evaluate(SAME_VNODE) == {
        "same": True, "looked": 0, "html": '<ul class="piles"><li>Copper ×46</li></ul>'}


DELEGATED = """async () => {
  const { h, mount } = await (""" + DOM + """)();
  const got = [];
  const dispatch = (intent) => got.push(intent);
  const node = mount(h('div', { id: 'delegated', onclick: 'outer' },
    h('button', { onclick: 'card', oncontextmenu: 'text' }, h('span', {}, 'Copper')),
    h('button', { onclick: (event) => { got.push('stopped'); event.stopPropagation(); } }, 'x')),
  dispatch);
  document.body.append(node);
  window.delegatedGot = got;
}"""
"""Two buttons drawn with handlers, in a box with one: the first's intents, the second's
own function, which stops the click there."""


def test_a_drawn_card_hands_its_clicks_to_the_documents_listener(page: Page) -> None:
    """A click or a long press on a node drawn with a handler is handed to it by the one
    listener of the document, innermost first, as it bubbles (and no further once
    stopped): no node has a listener of its own (issue 38: a card face had two)."""
    page.evaluate(DELEGATED)
    cdp = page.context.new_cdp_session(page)
    try:
        for selector in ("#delegated", "#delegated button"):
            found = cdp.send("Runtime.evaluate",
                             {"expression": f"document.querySelector('{selector}')"})
            listeners = cdp.send("DOMDebugger.getEventListeners",
                                 {"objectId": found["result"]["objectId"]})
            assert listeners["listeners"] == [], selector
    finally:
        cdp.detach()
    page.click("#delegated button span")
    page.click("#delegated button span", button="right")
    page.click("#delegated button >> nth=1")
    assert page.evaluate("window.delegatedGot") == ["card", "outer", "text", "stopped"]
    page.evaluate("document.getElementById('delegated').remove()")


def count_of(page: Page, card: str) -> str:
    text: str = page.locator(f'.supply [data-card="{card}"] .card-count').inner_text()
    return text


def test_an_update_keeps_the_nodes_of_the_board(page: Page) -> None:
    """Piles, chips and the bar keep their nodes through a whole round, and so do the piles'
    key hints, shown or hidden as the piles are offered or not, and the log's earlier
    turns; a pile bought from shows its new count in its own node; the log shows its last
    line."""
    create_table(page, "Ann", bots={1: "big_money"})
    assert my_turn(page)
    page.evaluate("""() => { window.kept = [...document.querySelectorAll(
        '.supply .card, .supply kbd, .players .chip, #decision, .log-turn')]; }""")
    counts = {card: count_of(page, card) for card in ("copper", "silver", "gold", "estate")}
    last = None
    bought = False
    while not bought and my_turn(page, last):
        last = decision_id(page)
        bought = act(page).startswith("buy")
    assert bought and my_turn(page, last)  # the bot has played its turn since
    assert page.evaluate("() => window.kept.filter((node) => !node.isConnected).length") == 0
    changed = {card for card, count in counts.items() if count_of(page, card) != count}
    assert changed, counts  # what was bought shows one fewer (in a kept node: above)
    log = page.locator(".log-lines")
    page.wait_for_function("""() => { const log = document.querySelector('.log-lines');
        return log.scrollHeight > log.clientHeight
          && log.scrollTop + log.clientHeight >= log.scrollHeight - 1; }""")
    assert log.locator("li").count() > 5


LOG_BOX = """() => { const log = document.querySelector('.log-lines');
  return { lines: log.querySelectorAll('li').length, height: log.getBoundingClientRect().height,
    contain: getComputedStyle(log).contain,
    chat: document.querySelector('.chat').getBoundingClientRect().top }; }"""


def test_a_line_added_to_the_log_leaves_the_table_as_it_was(browser: Browser,
                                                             server_url: str) -> None:
    """Beside the board (from 1000 px) the log is a box of its own size (24 rem, the
    size of a full log; its size contained): a line added lays out the log alone, not the table
    around it, and moves nothing under it (issue 25: drawing an update)."""
    page = new_page(browser, server_url, size=(1280, 900))
    create_table(page, "Ann", bots={1: "big_money"})
    assert my_turn(page)
    first = page.evaluate(LOG_BOX)
    last = None
    while my_turn(page, last) and page.evaluate(LOG_BOX)["lines"] < first["lines"] + 20:
        last = decision_id(page)
        act(page)
    later = page.evaluate(LOG_BOX)
    assert later["lines"] >= first["lines"] + 20
    assert first["height"] == later["height"] == 24 * 16
    assert first["chat"] == later["chat"]
    assert later["contain"] == "strict"  # size, layout, paint and style
    page.context.close()


LOG_SCROLL = """() => { const log = document.querySelector('.log-lines');
  return { lines: log.querySelectorAll('li').length, top: log.scrollTop,
    end: log.scrollHeight - log.clientHeight }; }"""
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""The page's scroll events delivered, and a frame drawn, after a scroll."""


def play_until_the_log_grows(page: Page, lines: int, last: str | None) -> str | None:
    """Answer until the log holds `lines` more lines than now; return the last decision."""
    want = page.evaluate(LOG_SCROLL)["lines"] + lines
    while my_turn(page, last) and page.evaluate(LOG_SCROLL)["lines"] < want:
        last = decision_id(page)
        act(page)
    assert page.evaluate(LOG_SCROLL)["lines"] >= want
    return last


def test_the_log_follows_its_end_only_while_its_reader_is_there(browser: Browser,
                                                                server_url: str) -> None:
    """Scrolled up to earlier lines, the log stays where its reader left it while lines
    come; scrolled back to its end, it follows the new lines again."""
    page = new_page(browser, server_url, size=(1280, 900))
    create_table(page, "Ann", bots={1: "big_money"})
    assert my_turn(page)
    last = None
    while my_turn(page, last) and page.evaluate(LOG_SCROLL)["end"] < 200:
        last = decision_id(page)
        act(page)
    page.evaluate("() => { document.querySelector('.log-lines').scrollTop = 40; }")
    page.evaluate(TWO_FRAMES)
    last = play_until_the_log_grows(page, 5, last)
    page.evaluate(TWO_FRAMES)
    assert page.evaluate(LOG_SCROLL)["top"] == 40  # left where its reader put it
    page.evaluate("""() => { const log = document.querySelector('.log-lines');
        log.scrollTop = log.scrollHeight; }""")
    page.evaluate(TWO_FRAMES)
    play_until_the_log_grows(page, 5, last)
    page.wait_for_function("""() => { const log = document.querySelector('.log-lines');
        return log.scrollTop >= log.scrollHeight - log.clientHeight - 1; }""")
    page.context.close()


LOG_VIEW = """async ({ kept, trimmed, draws }) => {
  const main = document.querySelector('script[type=module]').src;
  const { LogView } = await import(main.replace(/main\\.js$/, 'log_view.js'));
  const i18n = { lang: 'en', t: (key, vars) => `${vars.who}'s turn ${vars.n}`,
    card: (card) => card, many: (cards) => cards.join(', '), count: (n) => `${n} cards` };
  const view = new LogView({ kept, trimmed });
  document.body.append(view.node);
  const log = { events: [], total: 0, cleared: 0 };
  const turns = [];
  for (const events of draws) {
    log.events.push(...events);
    log.total += events.length;
    view.draw(log, ['Ann', 'Bot'], i18n, false);
    turns.push([...view.node.children]);
  }
  const drawn = [...view.node.children].map((turn) => [...turn.children].map(
    (line) => `${line.className === 'heading' ? '# ' : ''}${line.textContent}`));
  // which of the first drawing's turns are the same nodes in the last
  const keptNodes = turns[0].map((node) => turns.at(-1).includes(node));
  view.node.remove();
  return { drawn, keptNodes };
}"""
"""The page's own log_view.js, drawing a log from events (a stub of the words)."""


def turn(player: int, number: int, shuffles: int) -> list[dict[str, Any]]:
    return [{"kind": "turn_started", "player": player, "data": {"player_turn": number}},
            *({"kind": "shuffled", "player": player} for _ in range(shuffles))]


def test_the_log_draws_a_list_per_turn_and_trims_whole_turns(page: Page) -> None:
    """Each turn's lines are a list of their own, its heading first (the lines before the
    first turn in a list of theirs): a turn added is laid out and painted alone, and the
    turns drawn before it keep their nodes (issue 25). An event the log leaves out draws
    nothing; past the lines kept, the oldest turns go, whole."""
    ended = {"kind": "game_ended"}
    left_out = {"kind": "phase", "player": 0, "zone": "action"}
    first = [{"kind": "resigned", "player": 1}, *turn(0, 1, 1), left_out, *turn(1, 1, 2)]
    result = page.evaluate(LOG_VIEW, {"kept": 10, "trimmed": 0, "draws": [
        first, [{"kind": "shuffled", "player": 1}], [*turn(0, 2, 0), ended]]})
    assert result["drawn"] == [
        ["Bot resigns."], ["# Ann's turn 1", "Ann shuffles."],
        ["# Bot's turn 1", "Bot shuffles.", "Bot shuffles.", "Bot shuffles."],
        ["# Ann's turn 2", "The game is over."]]
    assert result["keptNodes"] == [True, True, True]  # appended to, never drawn again
    trimmed = page.evaluate(LOG_VIEW, {"kept": 6, "trimmed": 2, "draws": [
        [*turn(0, 1, 2), *turn(1, 1, 2), *turn(0, 2, 2)]]})
    assert trimmed["drawn"] == [["# Ann's turn 2", "Ann shuffles.", "Ann shuffles."]]


FOLLOWING = """async () => {
  const main = document.querySelector('script[type=module]').src;
  const { LogView } = await import(main.replace(/main\\.js$/, 'log_view.js'));
  const view = new LogView({ kept: 1000, trimmed: 100 });
  view.node.style.cssText = 'height: 100px; overflow-y: auto';
  document.body.append(view.node);
  const log = { events: [], total: 0, cleared: 0 };
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  // as the game's page draws: in a frame, following the end if its reader was there
  const draw = () => {
    const shuffles = Array.from({ length: 10 }, () => ({ kind: 'shuffled', player: 0 }));
    log.events.push(...shuffles);
    log.total += shuffles.length;
    view.draw(log, ['Ann'], { lang: 'en' }, view.atEnd());
  };
  for (let frames = 0; frames < 4; frames += 1) {
    await frame();
    draw();
  }
  await frame();
  await frame();
  const { scrollTop, scrollHeight, clientHeight } = view.node;
  view.node.remove();
  return { atEnd: view.atEnd(), behind: scrollHeight - clientHeight - scrollTop };
}"""
"""Lines drawn in four frames running (a message between each): each frame's scroll to the
end is told to the page (its scroll event) only in the next, after more lines came."""


def test_the_log_follows_lines_drawn_in_frames_running(page: Page) -> None:
    """The log's reader at its end stays there however quickly lines come: the scroll
    event of the page's own scroll to the end, come a frame late with the lines of the
    next draw below it, does not read as its reader scrolling up (it did, and the log
    stopped following: test_the_log_follows_its_end_only_while_its_reader_is_there timed
    out on a busy machine, whose frames come after several messages)."""
    assert page.evaluate(FOLLOWING) == {"atEnd": True, "behind": 0}


def test_a_click_leaves_the_focus_where_it_was(browser: Browser, server_url: str) -> None:
    """A mouse's click on a card or a button of the board does not take the focus (as
    buttons do on a Mac): a card played took the focus with it as it went, and Chromium
    then worked out the page's style in the middle of the draw (issue 25). The keyboard's
    focus is the browser tests' keyboard-only game's."""
    page = new_page(browser, server_url)
    create_table(page, "Ann", bots={1: "big_money"})
    assert my_turn(page)
    clicked = act(page)
    assert page.evaluate("document.activeElement === document.body"), clicked
    page.context.close()


CARD_BOXES = """() => [...document.querySelectorAll('.supply .card:not(.accent-attack)')].map(
  (card) => { const style = getComputedStyle(card);
    return { offered: card.classList.contains('offered'),
      box: ['Top', 'Right', 'Bottom', 'Left'].map((side) => style[`border${side}Width`]).join(' '),
      filter: style.filter, opacity: style.opacity, image: style.backgroundImage,
      key: card.querySelector('kbd') && getComputedStyle(card.querySelector('kbd')).visibility };
  })"""
PARTS_CONTAINED = """() => ['.supply', '.mine', '.trash'].map(
  (part) => getComputedStyle(document.querySelector(`.board-area > ${part}`)).contain)"""


def test_an_offered_pile_is_drawn_the_size_of_one_not_offered(browser: Browser,
                                                              server_url: str) -> None:
    """A pile's state changes its colours, its ring and whether its key shows, never its
    size, its layers or its nodes: a turn's change of what is offered lays nothing out
    again (issue 25). Its colour is no gradient, and the Supply contains its paint."""
    page = new_page(browser, server_url)
    create_table(page, "Ann", bots={1: "big_money"})
    assert my_turn(page)
    piles = page.evaluate(CARD_BOXES)
    offered = [pile for pile in piles if pile["offered"]]
    idle = [pile for pile in piles if not pile["offered"]]
    assert offered and idle, piles  # your first Buy: Copper and Curse, not Province
    assert {pile["box"] for pile in piles} == {"2px 2px 2px 2px"}, piles
    assert {(pile["filter"], pile["opacity"]) for pile in piles} == {("none", "1")}, piles
    assert {pile["key"] for pile in offered} == {"visible"}
    assert {pile["key"] for pile in idle} == {"hidden"}
    # a card of one colour (every card of First Game), offered or dimmed, is painted
    # plain: no gradient, an image painted again whenever its card is (issue 38)
    assert {pile["image"] for pile in piles} == {"none"}, piles
    # the parts that move when a chip grows move as they were painted (issue 38)
    assert page.evaluate(PARTS_CONTAINED) == ["content"] * 3  # layout, style and paint
    page.context.close()


CHIPS = """async () => {
  const main = document.querySelector('script[type=module]').src;
  const { mount, patch } = await (""" + DOM + """)();
  const { playersView } = await import(main.replace(/main\\.js$/, 'board.js'));
  const i18n = { t: (key) => key, seatName: (name) => name };
  const player = (seat) => ({ seat, hand_size: 5, deck_size: 10, points: 3, turns: 1,
    discard_top: null, in_play: [], set_aside: [] });
  const state = (turn) => ({ players: [player(0), player(1)], turn: { player: turn },
    decision: { player: turn }, viewer: 0, result: null, everyone: false,
    seatOf: (seat) => ({ name: ['Ann', 'Bea'][seat] }) });
  const node = mount(playersView(state(0), i18n));
  const names = [...node.querySelectorAll('.chip-name strong')];
  patch(node, playersView(state(1), i18n));
  return { kept: [...node.querySelectorAll('.chip-name strong')].map((n) => names.includes(n)),
    marks: [...node.querySelectorAll('.chip')].map(
      (chip) => chip.querySelectorAll('.mark').length) };
}"""
"""Two players' chips drawn with Ann's turn, then drawn again over them with Bea's."""


def test_the_turn_moving_on_keeps_the_players_names(page: Page) -> None:
    """The marks of whose turn it is and who decides come and go; the name beside them is
    drawn once and kept (the marks are keyed: drawn in order, a mark gone had the name
    drawn again over it)."""
    assert page.evaluate(CHIPS) == {"kept": [True, True], "marks": [0, 2]}
