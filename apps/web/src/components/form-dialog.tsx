import {
  Alert,
  Button,
  type ButtonProps,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  type DialogProps,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type FormEvent, type ReactNode, useId, useState } from 'react';

/** What a form dialog needs: its texts, its save, and the state of that save. */
export interface FormDialogProps {
  /** Shown or not; a dialog mounted only while open leaves it out (default: open). */
  open?: boolean;
  /** The heading, which also names the dialog (`aria-labelledby`). */
  title: ReactNode;
  /** Closes the dialog: Cancel, Escape and the backdrop call it, except while the save runs. */
  onClose: () => void;
  /**
   * The save, on the submit button and on Enter in a field. While its promise runs the submit
   * button is disabled and spins; a rejection is the caller's to show through `error` (a
   * mutation's `error`), so it is not thrown again here. It gets the form, for a form of
   * uncontrolled fields read with `FormData`.
   */
  onSubmit: (form: HTMLFormElement) => unknown;
  /**
   * The submit button's text (browser tests find the button by it: keep the feature's key); none
   * once the form is done and the dialog shows its outcome, with only the cancel (close) button.
   */
  submitLabel?: ReactNode;
  /** The submit button's colour (`error` for a destructive action such as voiding a read). */
  submitColor?: ButtonProps['color'];
  /** The cancel button's text, in the feature's namespace. */
  cancelLabel: ReactNode;
  /** A save running outside `onSubmit`'s promise (a mutation started with `mutate`). */
  busy?: boolean;
  /** The submit button is disabled while the form cannot be sent (a required choice not made). */
  submitDisabled?: boolean;
  /**
   * The message of a failed save (the problem+json made readable by the feature's own helper), in
   * an error alert above the fields.
   */
  error?: ReactNode;
  /** The dialog's width (default `sm`), always full up to it. */
  maxWidth?: DialogProps['maxWidth'];
  /** More buttons, before Cancel (a delete, a reset). */
  actions?: ReactNode;
  /** Let the browser check `required` fields before submitting (default: the server checks). */
  validate?: boolean;
  /** The fields, stacked. */
  children: ReactNode;
}

/**
 * The one dialog with a form of the organiser's pages (issue "one way for each thing"): title,
 * fields, an error alert for a failed save, Cancel, and a submit button busy while the save runs.
 * What the save does on success (close, announce, navigate) stays with the feature.
 */
export function FormDialog({
  open = true,
  title,
  onClose,
  onSubmit,
  submitLabel,
  submitColor,
  cancelLabel,
  busy = false,
  submitDisabled = false,
  error,
  maxWidth = 'sm',
  actions,
  validate = false,
  children,
}: FormDialogProps) {
  const titleId = useId();
  const [running, setRunning] = useState(false);
  const pending = busy || running;
  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (pending || submitLabel == null || submitDisabled) return;
    const result = onSubmit(e.currentTarget);
    if (!(result instanceof Promise)) return;
    setRunning(true);
    try {
      await result;
    } catch {
      // Shown through `error` by the caller (see `onSubmit`).
    } finally {
      setRunning(false);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      fullWidth
      maxWidth={maxWidth}
      aria-labelledby={titleId}
    >
      <form onSubmit={(e) => void handleSubmit(e)} noValidate={!validate}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error ? (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            ) : null}
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          {actions}
          <Button onClick={onClose} disabled={pending}>
            {cancelLabel}
          </Button>
          {submitLabel == null ? null : (
            <Button
              type="submit"
              variant="contained"
              color={submitColor}
              disabled={pending || submitDisabled}
              aria-busy={pending || undefined}
              startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            >
              {submitLabel}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
