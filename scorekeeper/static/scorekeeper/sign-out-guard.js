/* Signing out with deals waiting on this phone: the scorer is told first, and may send them.
 *
 * The deals kept offline belong to the account that typed them (deal-queue.js): once signed
 * out they stay on the phone and go only when that account signs in again. So "Sign out"
 * (form.sign-out) first asks, when some of this account's deals wait: "Send them first" or
 * "Sign out anyway". Texts come from the JSON block #sk-pwa.
 */
"use strict";

(function () {
  const configBlock = document.getElementById("sk-pwa");
  if (!configBlock) return;
  const texts = JSON.parse(configBlock.textContent).texts;
  const format = (text, values) => text.replace(/%\((\w+)\)s/g, (all, name) => values[name]);

  async function waiting() {
    const queue = window.SKDealQueue;
    const page = window.SKDealQueuePage;
    if (!queue || !page || !("indexedDB" in window)) return [];
    return (await queue.all()).filter(page.mine);
  }

  function leave(form) {
    form.setAttribute("data-confirmed", "");
    form.requestSubmit();
  }

  function button(text, className, action) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = className;
    node.textContent = text;
    node.addEventListener("click", action);
    return node;
  }

  function ask(form, count) {
    document.getElementById("sign-out-warning")?.remove();
    const box = document.createElement("div");
    box.id = "sign-out-warning";
    box.className = "message message-error sign-out-warning";
    box.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = format(texts.signOutWaiting, {count});
    const actions = document.createElement("div");
    actions.className = "actions";
    actions.append(
      button(texts.sendFirst, "button button-primary", async () => {
        await window.SKDealQueuePage.send();
        const left = await waiting();
        if (left.length) ask(form, left.length);
        else leave(form);
      }),
      button(texts.signOutAnyway, "button", () => leave(form)),
    );
    box.append(text, actions);
    const main = document.getElementById("main");
    if (main) main.prepend(box);
    box.scrollIntoView({block: "nearest"});
    actions.firstChild.focus();
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches || !form.matches("form.sign-out") || form.hasAttribute("data-confirmed")) return;
    event.preventDefault();
    const left = await waiting();
    if (left.length) ask(form, left.length);
    else leave(form);
  }, true);
})();
