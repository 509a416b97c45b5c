import { dialog } from 'electron'

/** The answer to "the port is busy": start on the free one (and maybe keep it), or quit. */
export interface PortChoice {
  use: boolean
  remember: boolean
}

/** Asks whether to start on `free` because `busy` is taken; "Quit" and closing the dialog both refuse. */
export async function askForOtherPort(busy: number, free: number): Promise<PortChoice> {
  const { response, checkboxChecked } = await dialog.showMessageBox({
    type: 'warning',
    title: 'Gatehouse',
    message: `Port ${busy} is already in use`,
    detail: `Another program listens on 127.0.0.1:${busy}. Gatehouse can start on port ${free} instead; SDKs and tools pointed at port ${busy} then need the new address.`,
    buttons: [`Start on port ${free}`, 'Quit'],
    defaultId: 0,
    cancelId: 1,
    checkboxLabel: `Use port ${free} from now on (saved in settings)`,
    checkboxChecked: false,
  })
  return { use: response === 0, remember: response === 0 && checkboxChecked }
}
