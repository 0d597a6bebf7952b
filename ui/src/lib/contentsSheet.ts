// "On this page" as a sheet on a phone (README, "Reading aids and dates"): the dock's button the
// generator writes hidden is shown once it can work, and opens the sheet as a modal <dialog>, so
// the browser keeps focus inside it, closes it on Escape and gives focus back to the button.
// Choosing an entry closes the sheet and the link goes on to its section; a tap on the backdrop
// closes it too. Without JavaScript the dock holds only its link to the top.

export function watchContentsSheet(root: Document = document): void {
  const button = root.querySelector<HTMLButtonElement>('.dock-contents');
  const sheet = root.querySelector<HTMLDialogElement>('dialog.contents-sheet');
  if (!button || !sheet || typeof sheet.showModal !== 'function') return;
  button.setAttribute('aria-expanded', 'false');
  button.addEventListener('click', () => {
    sheet.showModal();
    button.setAttribute('aria-expanded', 'true');
  });
  sheet.addEventListener('close', () => button.setAttribute('aria-expanded', 'false'));
  sheet.addEventListener('click', (event) => {
    // The dialog's own box is hit only outside its content, on the backdrop.
    if (event.target === sheet) sheet.close();
    else if ((event.target as Element).closest('a[href^="#"]')) sheet.close();
  });
  button.hidden = false;
}
