import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** What a confirmation asks: the question names the action and its object, `consequence` what follows from it. */
export interface ConfirmRequest {
  /** The question, naming what will happen to what: "Deactivate deployment 'churn-v2'?" */
  question: string;
  /** What follows once confirmed: "It stops answering predictions." */
  consequence?: string;
  /** The confirming button's text (the action's verb: "Deactivate"). */
  confirmLabel: string;
  /** Styles the confirming button as destructive (red); default true. */
  danger?: boolean;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal confirmation: role=alertdialog named by its question and described by its consequence. It is a native
 * `<dialog>` opened with showModal(), so the rest of the page is inert while it is up; Tab and Shift+Tab also wrap
 * inside it (the browser would otherwise let focus leave to its own toolbar), Escape cancels, and focus starts on
 * Cancel (Enter on a destructive dialog must not destroy) and returns to what had it before.
 */
export function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest; onAnswer: (ok: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      before?.focus();
    };
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <dialog
      ref={ref}
      class="confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="confirm-question"
      aria-describedby={request.consequence ? 'confirm-consequence' : undefined}
      onKeyDown={onKeyDown}
      // Escape fires `cancel`: answered here so the dialog closes through the same path as the Cancel button.
      onCancel={(e) => {
        e.preventDefault();
        onAnswer(false);
      }}
    >
      <h2 id="confirm-question">{request.question}</h2>
      {request.consequence && <p id="confirm-consequence">{request.consequence}</p>}
      <div class="row">
        <button ref={cancelRef} type="button" class="secondary" onClick={() => onAnswer(false)}>
          Cancel
        </button>
        <button type="button" class={request.danger === false ? undefined : 'danger'} onClick={() => onAnswer(true)}>
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * `confirm(request)` shows a {@link ConfirmDialog} and resolves to whether the user confirmed; render `dialog`
 * somewhere in the component. One question at a time: a second call while one is open answers the first `false`.
 */
export function useConfirm(): { confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: ComponentChildren } {
  const [open, setOpen] = useState<{ request: ConfirmRequest; resolve: (ok: boolean) => void } | null>(null);
  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) =>
        setOpen((prev) => {
          prev?.resolve(false);
          return { request, resolve };
        }),
      ),
    [],
  );
  const dialog = open ? (
    <ConfirmDialog
      request={open.request}
      onAnswer={(ok) => {
        setOpen(null);
        open.resolve(ok);
      }}
    />
  ) : null;
  return { confirm, dialog };
}

/**
 * A button whose action runs only once confirmed: the smallest change to a page's destructive button. Extra props
 * (class, disabled, aria-label) go to the button.
 */
export function ConfirmButton({
  confirm: request,
  onConfirm,
  children,
  class: className = 'danger',
  disabled,
  'aria-label': ariaLabel,
}: {
  confirm: ConfirmRequest;
  onConfirm: () => unknown;
  children: ComponentChildren;
  class?: string;
  disabled?: boolean;
  'aria-label'?: string;
}) {
  const { confirm, dialog } = useConfirm();
  return (
    <>
      <button
        type="button"
        class={className}
        disabled={disabled}
        aria-label={ariaLabel}
        aria-haspopup="dialog"
        onClick={() =>
          void confirm(request).then((ok) => {
            if (ok) onConfirm();
          })
        }
      >
        {children}
      </button>
      {dialog}
    </>
  );
}
