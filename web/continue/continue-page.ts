/**
 * The continue page's only script: at most four matches can be ticked. Once four are ticked the
 * others are disabled and a message says why (the server refuses more than four lenders anyway, and
 * the page works without this script).
 */
function limitTicks(form: HTMLFormElement): void {
  const max = Number(form.dataset.maxTicks ?? '4');
  const boxes = [...form.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="choice"]')];
  const message = form.querySelector<HTMLElement>('[data-testid="tick-limit"]');
  const apply = () => {
    const ticked = boxes.filter((b) => b.checked).length;
    const full = ticked >= max;
    for (const box of boxes) box.disabled = full && !box.checked;
    if (message)
      message.textContent = full ? `You have chosen ${max}, the most you can choose. Untick one to choose another.` : `${ticked} of up to ${max} chosen.`;
  };
  form.addEventListener('change', apply);
  apply();
}

document.querySelectorAll<HTMLFormElement>('form[data-max-ticks]').forEach(limitTicks);
