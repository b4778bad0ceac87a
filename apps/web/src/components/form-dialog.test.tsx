import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog, type FormDialogProps } from './form-dialog.tsx';

/** A dialog with one field, its save given by the test. */
function NameDialog(props: Partial<FormDialogProps> & Pick<FormDialogProps, 'onSubmit'>) {
  const [name, setName] = useState('');
  return (
    <FormDialog title="New event" submitLabel="Create" cancelLabel="Cancel" onClose={() => {}} {...props}>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
    </FormDialog>
  );
}

/** A promise the test settles. */
function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('FormDialog', () => {
  it('is a dialog named by its title, with its fields and buttons', () => {
    render(<NameDialog onSubmit={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    expect(dialog).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'New event' })).toBeTruthy();
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('submits on Enter in a field', async () => {
    const onSubmit = vi.fn();
    render(<NameDialog onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Spa{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('disables the submit button, keeping its name, while the save runs, and not Escape', async () => {
    const save = deferred();
    const onClose = vi.fn();
    render(<NameDialog onSubmit={() => save.promise} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    const submit = screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    save.resolve();
    await vi.waitFor(() => expect(submit.disabled).toBe(false));
    expect(submit.getAttribute('aria-busy')).toBeNull();
  });

  it('frees the submit button after a failed save, the error being the caller’s to show', async () => {
    const save = deferred();
    render(<NameDialog onSubmit={() => save.promise} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    save.reject(new Error('boom'));
    const submit = screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    await vi.waitFor(() => expect(submit.disabled).toBe(false));
  });

  it('is busy as told (a mutation started with mutate) and when the form cannot be sent', () => {
    const { rerender } = render(<NameDialog onSubmit={() => {}} busy />);
    expect((screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(true);
    rerender(<NameDialog onSubmit={() => {}} submitDisabled />);
    expect((screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('closes on Cancel and on Escape when idle', async () => {
    const onClose = vi.fn();
    render(<NameDialog onSubmit={() => {}} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('shows the error of a failed save in an alert, and extra actions', () => {
    render(
      <NameDialog
        onSubmit={() => {}}
        error="The name is taken."
        actions={<button type="button">Delete</button>}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('The name is taken.');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('gives the save its form, for uncontrolled fields read with FormData', async () => {
    let read = '';
    render(
      <FormDialog
        title="Entry"
        submitLabel="Save"
        cancelLabel="Cancel"
        onClose={() => {}}
        onSubmit={(form) => {
          read = String(new FormData(form).get('lastName'));
        }}
      >
        <label>
          Last name
          <input name="lastName" defaultValue="Peeters" />
        </label>
      </FormDialog>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(read).toBe('Peeters');
  });

  it('does not submit on Enter while the form cannot be sent', async () => {
    const onSubmit = vi.fn();
    render(<NameDialog onSubmit={onSubmit} submitDisabled />);
    await userEvent.type(screen.getByLabelText('Name'), 'Spa{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps only its close button once done (no submit label)', async () => {
    const onSubmit = vi.fn();
    render(<NameDialog onSubmit={onSubmit} submitLabel={null} cancelLabel="Close" />);
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Name'), 'Spa{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('renders nothing when closed', () => {
    render(<NameDialog onSubmit={() => {}} open={false} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
