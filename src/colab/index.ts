/** The only module that knows Colab's DOM (DEVELOPERS.md). Content scripts import from here. */

export * from './actions';
export * from './capture';
export * from './cells';
export * from './detection-check';
export * from './dialogs';
export * from './disconnect';
export * from './dom';
export * from './kernel-state';
export * from './observer';
export * from './output-frame-reader';
export * from './output-list';
export * from './runtime-menu';
export * from './selectors';
export * from './stream-tail';
export * from './toolbar-menu';
export * from './verify';
