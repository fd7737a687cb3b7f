package org.libtp.btree;

import org.libtp.core.buffer.Page;
import org.libtp.core.txn.PageUpdates;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.txn.Txn;

/** TP mode's logging: records in the transaction's chain, page LSNs set (write-ahead). */
final class TxnBtreeLog implements BtreeLog {
    static {
        BtreeLeafRecord.register();
        BtreeReplaceRecord.register();
    }

    private final Txn txn;
    private final PageUpdates pages;
    private final EndActions endActions;

    TxnBtreeLog(Txn txn, PageUpdates pages, EndActions endActions) {
        this.txn = txn;
        this.pages = pages;
        this.endActions = endActions;
    }

    @Override
    public boolean drains() {
        return true;
    }

    @Override
    public void onEnd(boolean onCommit, int file, EndAction action) {
        endActions.add(txn.id(), onCommit, file, action);
    }

    @Override
    public void leafInsert(Page page, int slot, byte[] key, byte[] data) {
        long lsn = txn.log(new BtreeLeafRecord(true, page.fileId(), page.pageNo(), slot, key, data));
        page.setLsn(lsn, txn.lastLsnEnd());
    }

    @Override
    public void leafDelete(Page page, int slot, byte[] key, byte[] data) {
        long lsn = txn.log(new BtreeLeafRecord(false, page.fileId(), page.pageNo(), slot, key, data));
        page.setLsn(lsn, txn.lastLsnEnd());
    }

    @Override
    public void leafReplace(Page page, BtreeReplaceRecord change) {
        long lsn = txn.log(change);
        page.setLsn(lsn, txn.lastLsnEnd());
    }

    @Override
    public void ensureSpace(long bytes) {
        txn.ensureLogSpace(bytes);
    }

    @Override
    public void pageUpdate(Page page, int offset, byte[] after) {
        pages.update(txn, page, offset, after);
    }

    @Override
    public void image(Page page) {
        pages.image(txn, page); // records after the change: the image holds it
    }
}
