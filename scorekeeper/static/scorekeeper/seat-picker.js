/* Seat the players by tapping their names in seat order (starting an evening or a game).
 *
 * The form keeps its six seat menus (they work without JavaScript); this adds, above them,
 * one button per player: a tap puts the player in the first empty seat, a second tap takes
 * them out again. The menus show the result, and "deals first" stays beside each seat.
 *   <fieldset class="seats" data-seat-picker data-hint="...">…<select name="seat_N">…
 */
"use strict";

(function () {
  function setup(fieldset) {
    const seats = Array.from(fieldset.querySelectorAll("select[name^='seat_']"));
    if (!seats.length) return;
    const players = Array.from(seats[0].options).filter((option) => option.value);
    const box = document.createElement("div");
    box.className = "seat-picker";
    const hint = document.createElement("p");
    hint.className = "field-help";
    hint.textContent = fieldset.getAttribute("data-hint") || "";
    const buttons = document.createElement("div");
    buttons.className = "choices seat-picker-names";
    box.append(hint, buttons);

    function seatOf(value) {
      return seats.findIndex((select) => select.value === value);
    }

    function refresh() {
      for (const button of buttons.children) {
        const seat = seatOf(button.value);
        button.setAttribute("aria-pressed", seat >= 0 ? "true" : "false");
        button.querySelector(".seat-number").textContent = seat >= 0 ? String(seat + 1) : "";
      }
    }

    for (const option of players) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button seat-name";
      button.value = option.value;
      const number = document.createElement("span");
      number.className = "seat-number";
      button.append(number, document.createTextNode(option.textContent));
      button.addEventListener("click", () => {
        const seat = seatOf(option.value);
        if (seat >= 0) seats[seat].value = "";
        else {
          const empty = seats.find((select) => !select.value);
          if (empty) empty.value = option.value;
        }
        refresh();
      });
      buttons.append(button);
    }
    seats.forEach((select) => select.addEventListener("change", refresh));
    fieldset.querySelector("legend").after(box);
    refresh();
  }

  function start() {
    document.querySelectorAll("fieldset[data-seat-picker]").forEach(setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
