/* The counter page's steppers: the − and + buttons next to each count (data-step, data-for).
 * Loaded in the head without defer, so that the "js" class (which shows the steppers) is set
 * before the page is drawn; the click listener sits on the document and needs no DOM yet. */
document.documentElement.classList.add("js");
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = document.getElementById(button.dataset.for);
  const current = parseInt(input.value, 10);
  input.value = Math.max(0, (Number.isNaN(current) ? 0 : current) + Number(button.dataset.step));
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
