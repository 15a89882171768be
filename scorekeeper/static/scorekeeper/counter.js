/* The counter page's quick inputs: the − and + buttons next to each count (data-step,
 * data-for), and the counts and the last card tapped in one go (data-pick, data-for).
 * Loaded in the head without defer, so that the "js" class (which shows them) is set
 * before the page is drawn; the click listener sits on the document and needs no DOM yet. */
document.documentElement.classList.add("js");
document.addEventListener("click", (event) => {
  const pick = event.target.closest("[data-pick]");
  if (pick) {
    const field = document.getElementById(pick.dataset.for);
    field.value = pick.dataset.pick;
    for (const other of pick.parentElement.querySelectorAll("[data-pick]")) {
      other.setAttribute("aria-pressed", other === pick ? "true" : "false");
    }
    field.dispatchEvent(new Event("input", { bubbles: true }));
    return;
  }
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = document.getElementById(button.dataset.for);
  const current = parseInt(input.value, 10);
  input.value = Math.max(0, (Number.isNaN(current) ? 0 : current) + Number(button.dataset.step));
  input.dispatchEvent(new Event("input", { bubbles: true }));
  const picks = input.closest(".count-row").querySelectorAll("[data-pick]");
  for (const other of picks) other.setAttribute("aria-pressed", other.dataset.pick === input.value ? "true" : "false");
});
