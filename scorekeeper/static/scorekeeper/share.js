/* Share a link: the Copy button copies it, the Share button opens the phone's share sheet
 * (Web Share API). Each button is hidden until this script finds what it needs. Arriving
 * at a section named by the address (#owner-tools once a link is made), its QR code opens.
 *   <button data-copy="#input-id" data-copied="Copied">   <button data-share-url="..." data-share-title="...">
 */
"use strict";

(function () {
  function setup() {
    const target = location.hash && document.getElementById(location.hash.slice(1));
    const qr = target && target.querySelector("details.qr-details");
    if (qr) {
      qr.open = true;
      target.scrollIntoView({block: "start"});
    }
    for (const button of document.querySelectorAll("button[data-copy]")) {
      const input = document.querySelector(button.dataset.copy);
      if (!input) continue;
      button.hidden = false;
      button.addEventListener("click", async () => {
        const label = button.textContent;
        try {
          await navigator.clipboard.writeText(input.value);
        } catch (error) {
          input.select(); // no clipboard access: the link is selected, ready to copy by hand
          document.execCommand("copy");
        }
        button.textContent = button.dataset.copied;
        setTimeout(() => { button.textContent = label; }, 2000);
      });
    }
    for (const button of document.querySelectorAll("button[data-share-url]")) {
      const data = {url: button.dataset.shareUrl, title: button.dataset.shareTitle};
      if (!navigator.share || (navigator.canShare && !navigator.canShare(data))) continue;
      button.hidden = false;
      button.addEventListener("click", () => navigator.share(data).catch(() => {}));
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
