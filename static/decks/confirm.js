// Ask before submitting forms marked with data-confirm (deleting a deck cannot be undone).
document.addEventListener("submit", (event) => {
  const message = event.target.dataset && event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
